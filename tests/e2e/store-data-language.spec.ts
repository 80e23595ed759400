import { expect, test, type Page } from '@playwright/test';

/** Kana or kanji. */
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/**
 * The text of what matches, less what the page marks as the store's own Japanese (lang="ja": the
 * name beside its romanised form, the address, the store's own wording).
 */
const shownText = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const ja of copy.querySelectorAll('[lang="ja"]')) ja.remove();
      for (const hidden of copy.querySelectorAll('[hidden], .sr-only')) hidden.remove();
      return copy.textContent ?? '';
    }),
  );

test.describe('store data in English', () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await context.addCookies([{ name: 'locale', value: 'en', url: baseURL! }]);
  });

  // Both kinds of card: the bookable-now list and the groups after now (later today, another day).
  // Early in the morning an area may have no store bookable now, but always one on another day.
  const CARDS = 'article[data-store-id], article[data-beyond-store-id]';
  const NAMES = ':is(article[data-store-id] h2, article[data-beyond-store-id] h3) a [lang="ja"]';

  test('no listing shows Japanese areas, stations, genres or budgets: only the store name, in parentheses after its romanised form', async ({ page }) => {
    for (const path of ['/home', '/stores?party=2', '/areas/1', '/areas/2']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      const cards = await shownText(page, CARDS);
      expect(cards.length, path).toBeGreaterThan(0);
      for (const card of cards) expect(card, `${path}: ${card}`).not.toMatch(JAPANESE);
      // The Japanese name is there, beside the name a visitor can read.
      await expect(page.locator(NAMES).first()).toHaveText(/^\(.+\)$/);
      // The area list and the area choice read in English too.
      for (const text of await shownText(page, '[data-area], select[name="area"] option')) expect(text).not.toMatch(JAPANESE);
    }
  });

  test('a store page names its area, station, features and budget in English and labels the store’s own fee wording', async ({ page }) => {
    for (const id of [1, 2, 3, 5, 8, 13]) {
      await page.goto(`/store/${id}`);
      const [heading] = await shownText(page, 'main h1');
      expect(heading).toMatch(/^[\p{Script=Latin}\d&'. -]+$/u);
      const info = await shownText(page, 'main header, main nav[aria-label] li, #info-heading + dl');
      for (const text of info) expect(text, `store ${id}: ${text}`).not.toMatch(JAPANESE);
      await expect(page.locator('#info-heading + dl')).toContainText(/min walk from .+ Station/);
      const policy = page.locator('[data-policy-original]');
      if (await policy.count()) await expect(policy).toHaveText('In the restaurant’s own words (Japanese)');
    }
  });
});

test('in Arabic a budget reads from its lower bound, the currency after the amounts', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'locale', value: 'ar', url: baseURL! }]);
  await page.goto('/store/1');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const budget = (await page.locator('main header p span').filter({ hasText: 'JP¥' }).innerText()).trim();
  const amounts = [...budget.matchAll(/\d[\d,]*/g)].map((m) => Number(m[0].replaceAll(',', '')));
  expect(amounts).toHaveLength(2);
  expect(amounts[0]).toBeLessThan(amounts[1]!);
  expect(budget.indexOf('JP¥')).toBeGreaterThan(budget.search(/\d/));
  expect(budget).not.toContain('〜');
});
