/**
 * Accessibility: axe-core on every product page and the main template pages, in both themes; the
 * page of a start held for a watcher on a server of its own (a start is held only for an address
 * confirmed by mail).
 *
 * The eighty-odd page checks are the longest piece of the browser suite. They run as a dozen tests
 * of a few pages each, in parallel mode, so that Playwright spreads them over its workers; a few
 * pages per test (rather than one) keep each page's styles and scripts in the browser's cache for
 * the next one.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { heldStart, serverWithMail } from '../helpers/held-start';

const GUEST_PAGES = [
  '/home',
  '/stores',
  '/stores?name=%E7%84%BC%E8%82%89',
  '/areas/1',
  '/store/1',
  '/store/1/booking-without',
  '/booking-list',
  '/auth/signin',
  '/auth/signup',
  '/auth/forgot-password',
  '/auth/reset-password?token=invalid',
  '/term',
  '/privacy',
  '/ecommerce',
  '/info-contracted-store',
  '/utility/maintenance',
  '/utility/coming-soon',
  '/utility/help',
  '/error/not-found',
  '/error/unexpected',
  '/error',
  '/no-such-page',
];
const SIGNED_IN_PAGES = [
  '/favourite',
  '/viewed-list',
  '/booking-list',
  '/account-info',
  '/user-change-password',
  '/user-leave-association',
  '/store/1/booking',
];
const TEMPLATE_PAGES = [
  '/dashboard/analytics',
  '/apps/email/inbox',
  '/apps/chat',
  '/apps/todo',
  '/apps/board',
  '/ecommerce/list',
  '/ecommerce/cart',
  '/users/list',
  '/ui/components/alerts',
  '/ui/forms/text-fields',
  '/blank',
];

test.describe.configure({ mode: 'parallel' });

/** Pages per test: few enough to spread over the workers, enough to keep the cache warm. */
const PER_TEST = 6;
function chunks(pages: string[]): string[][] {
  const n = Math.ceil(pages.length / PER_TEST);
  return Array.from({ length: n }, (_, i) => pages.slice(Math.floor((i * pages.length) / n), Math.floor(((i + 1) * pages.length) / n)));
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** Each page in turn; the violations found, by page (empty when there are none). */
async function violationsOf(page: Page, paths: string[], signedIn = false) {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
    if (signedIn) expect(page.url()).not.toContain('/auth/signin');
    const v = await seriousViolations(page);
    if (v.length) found[path] = v;
  }
  return found;
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    test.describe.configure({ timeout: 180_000 });
    test.beforeEach(async ({ context, baseURL }) => {
      await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    });

    for (const paths of chunks(GUEST_PAGES)) {
      test(`guest pages ${paths[0]} … ${paths.at(-1)} have no serious or critical violations`, async ({ page }) => {
        expect(await violationsOf(page, paths)).toEqual({});
      });
    }

    for (const paths of chunks(SIGNED_IN_PAGES)) {
      test(`signed-in pages ${paths[0]} … ${paths.at(-1)} have no serious or critical violations`, async ({ page }) => {
        const email = `a11y-${theme}-${test.info().workerIndex}-${Date.now()}@example.jp`;
        const res = await page.request.post('/api/users', { data: { name: '検査 太郎', email, password: 'correct horse battery', agree: true } });
        expect(res.status()).toBe(201);
        // Sign-up signs no one in (the mailed link does); the password just chosen does.
        expect((await page.request.post('/api/login', { data: { email, password: 'correct horse battery' } })).status()).toBe(200);
        expect(await violationsOf(page, paths, true)).toEqual({});
      });
    }

    for (const paths of chunks(TEMPLATE_PAGES)) {
      test(`template pages ${paths[0]} … ${paths.at(-1)} have no serious or critical violations`, async ({ page }) => {
        expect(await violationsOf(page, paths)).toEqual({});
      });
    }
  });
}

test.describe('axe, the hold page', () => {
  const own = serverWithMail();

  test('a start held for a watcher: its page, as its owner sees it with the claim form, light and dark, has no serious or critical violations', async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000);
    const { path } = await heldStart(page.request, own.base, own.smtp);
    const found: Record<string, string[]> = {};
    for (const theme of ['light', 'dark'] as const) {
      await context.addCookies([{ name: 'theme', value: theme, url: own.base }]);
      await page.goto(`${own.base}${path}`);
      await page.waitForLoadState('load');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.getByRole('button', { name: 'この席を予約する' })).toBeVisible();
      found[theme] = await seriousViolations(page);
    }
    expect(found).toEqual({ light: [], dark: [] });
  });
});
