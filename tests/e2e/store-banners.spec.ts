/**
 * Campaign banners in Chromium at tablet size, in Japanese: staff schedule a banner for today on
 * the store host, and a diner in another browser context sees it on /home at once, in a labelled
 * region, with nothing on the page shifting; both pages pass axe in both themes and are valid HTML.
 * The banner is deleted at the end, so the other tests' home page stays as it was.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { htmlValidateErrors, nuCheckerErrors } from '../helpers/html-validators';

const TABLET = { width: 1024, height: 768 };
test.use({ viewport: TABLET });

const storeHost = `http://store.localhost:${process.env.E2E_PORT}`;

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

/** Axe on the page shown, in the light theme then the dark one (the theme cookie of `origin`). */
async function axeBothThemes(page: Page, origin: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.context().addCookies([{ name: 'theme', value: theme, url: origin }]);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    expect([page.url(), theme, await seriousViolations(page)]).toEqual([page.url(), theme, []]);
  }
}

test('staff schedule a banner; a diner’s /home shows it at once in a labelled region, with no layout shift', async ({ page, browser, baseURL }) => {
  // Two pages in two themes through axe and both validators, on a busy machine.
  test.setTimeout(240_000);
  await page.goto(`${storeHost}/store-signin`);
  await page.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
  await page.getByLabel('パスワード').fill(DEMO_STAFF.password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
  await page.getByRole('navigation', { name: '店舗メニュー' }).getByRole('link', { name: 'キャンペーンバナー' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('キャンペーンバナー');

  const title = `限定 ${Date.now() % 100000}`;
  const form = page.getByTestId('banner-form');
  await form.getByLabel('タイトル').fill(title);
  await form.getByLabel('本文').fill('ご来店の方にデザートをサービスします');
  // Today to today, as the form starts; linked to the store's page, as it starts too.
  await expect(form.getByLabel('店舗ページへのリンク')).toBeChecked();
  await form.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByTestId('store-flash')).toHaveText('バナーを登録しました');
  const listed = page.getByTestId('banners-current').locator('li').filter({ hasText: title });
  await expect(listed).toBeVisible();
  const bannerId = await listed.getAttribute('data-banner');
  await axeBothThemes(page, storeHost);

  // A diner in another browser: the banner is on /home, and nothing on the page moves as it settles.
  const diner = await browser.newContext({ viewport: TABLET, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', baseURL });
  try {
    const home = await diner.newPage();
    await home.addInitScript(() => {
      const w = window as unknown as { __shift: number; __bannerShift: number };
      w.__shift = 0;
      w.__bannerShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] })[]) {
          if (entry.hadRecentInput) continue;
          w.__shift += entry.value;
          const region = document.querySelector('[data-testid="home-banners"]');
          if (entry.sources?.some((s) => s.node && region && (region === s.node || region.contains(s.node) || s.node.contains(region))))
            w.__bannerShift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await home.goto('/home');
    const region = home.getByRole('region', { name: 'お店からのお知らせ' });
    await expect(region).toBeVisible();
    const card = region.locator(`[data-banner="${bannerId}"]`);
    await expect(card).toContainText(title);
    await expect(card).toContainText('ご来店の方にデザートをサービスします');
    // Above the fold, before the search.
    const box = await region.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(TABLET.height);
    await home.evaluate(() => document.fonts.ready);
    await expect.poll(() => home.evaluate(() => document.readyState)).toBe('complete');
    // …and after the live counts have replaced what the server rendered.
    await expect(home.locator('#store-results article[data-live-state]').first()).toBeAttached();
    const shifts = await home.evaluate(() => {
      const w = window as unknown as { __shift: number; __bannerShift: number };
      return { total: w.__shift, banner: w.__bannerShift };
    });
    expect(shifts.banner).toBe(0);
    expect(shifts.total).toBeLessThan(0.05);
    // The banner opens the store's page.
    await expect(card.getByRole('link')).toHaveAttribute('href', /^\/store\/\d+$/);
    await axeBothThemes(home, baseURL!);

    // Both pages as the server sends them are valid HTML.
    const pages = [
      { name: '/home with a banner', html: await (await diner.request.get('/home')).text() },
      // Read by the page itself: the store host's cookie is host-only, and the name resolves in Chromium.
      { name: '/campaign-banner', html: await page.evaluate(() => fetch('/campaign-banner').then((r) => r.text())) },
    ];
    expect(pages[0]!.html).toContain(title);
    expect(pages[1]!.html).toContain(title);
    expect(await htmlValidateErrors(pages)).toEqual([]);
    expect(await nuCheckerErrors(pages)).toEqual([]);
  } finally {
    await diner.close();
  }

  // Deleted: the store's list and the diner home no longer have it.
  await page
    .getByTestId('banners-current')
    .locator(`[data-banner="${bannerId}"]`)
    .getByRole('button', { name: `削除: ${title}` })
    .click();
  await expect(page.getByTestId('store-flash')).toHaveText('バナーを削除しました');
  await expect(page.locator(`[data-banner="${bannerId}"]`)).toHaveCount(0);
  expect(await (await page.request.get(`${baseURL}/home`)).text()).not.toContain(title);
});
