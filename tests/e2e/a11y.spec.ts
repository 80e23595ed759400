/** Accessibility: axe-core on every product page and the main template pages, in both themes. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

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
const SIGNED_IN_PAGES = ['/favourite', '/viewed-list', '/booking-list', '/account-info', '/user-change-password', '/user-leave-association', '/store/1/booking'];
const TEMPLATE_PAGES = ['/dashboard/analytics', '/apps/email/inbox', '/apps/chat', '/apps/todo', '/apps/board', '/ecommerce/list', '/ecommerce/cart', '/users/list', '/ui/components/alerts', '/ui/forms/text-fields', '/blank'];

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    test.describe.configure({ timeout: 240_000 });
    test.beforeEach(async ({ context, baseURL }) => {
      await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    });

    test('guest pages have no serious or critical violations', async ({ page }) => {
      const found: Record<string, string[]> = {};
      for (const path of GUEST_PAGES) {
        await page.goto(path);
        await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
        const v = await seriousViolations(page);
        if (v.length) found[path] = v;
      }
      expect(found).toEqual({});
    });

    test('signed-in pages have no serious or critical violations', async ({ page }) => {
      const email = `a11y-${theme}-${Date.now()}@example.jp`;
      const res = await page.request.post('/api/users', { data: { name: '検査 太郎', email, password: 'correct horse battery', agree: true } });
      expect(res.status()).toBe(201);
      const found: Record<string, string[]> = {};
      for (const path of SIGNED_IN_PAGES) {
        await page.goto(path);
        await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
        expect(page.url()).not.toContain('/auth/signin');
        const v = await seriousViolations(page);
        if (v.length) found[path] = v;
      }
      expect(found).toEqual({});
    });

    test('main template pages have no serious or critical violations', async ({ page }) => {
      const found: Record<string, string[]> = {};
      for (const path of TEMPLATE_PAGES) {
        await page.goto(path);
        await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
        const v = await seriousViolations(page);
        if (v.length) found[path] = v;
      }
      expect(found).toEqual({});
    });
  });
}
