import { expect, test, type Page } from '@playwright/test';

/**
 * Until the diner chooses a theme, the page follows the phone's light or dark setting, from the
 * first paint and without JavaScript (the stylesheet's prefers-color-scheme); a choice then wins.
 */

const DARK_BASE = 'rgb(5, 9, 12)';
const LIGHT_BASE = 'rgb(255, 255, 255)';
const background = (page: Page) => page.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor);
const toggle = (page: Page) => page.getByTestId('theme-toggle').filter({ visible: true });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test('a phone set to dark gets the dark theme until the diner chooses light, which then stays', async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, colorScheme: 'dark', javaScriptEnabled, locale: 'ja-JP' });
      const page = await context.newPage();
      await page.goto('/home');
      await expect(page.locator('html')).not.toHaveAttribute('data-theme');
      expect(await background(page)).toBe(DARK_BASE);
      await expect(page.locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]')).toHaveAttribute('content', '#05090c');
      // One toggle shows, and it offers the other theme than the one the phone shows.
      await expect(toggle(page)).toHaveCount(1);
      await expect(toggle(page)).toHaveAccessibleName('テーマ: ライト');
      await toggle(page).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      expect(await background(page)).toBe(LIGHT_BASE);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      expect(await background(page)).toBe(LIGHT_BASE);
      await expect(toggle(page)).toHaveAccessibleName('テーマ: ダーク');
      await context.close();
    });

    test('a phone set to light gets the light theme and is offered dark', async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, colorScheme: 'light', javaScriptEnabled, locale: 'ja-JP' });
      const page = await context.newPage();
      await page.goto('/home');
      await expect(page.locator('html')).not.toHaveAttribute('data-theme');
      expect(await background(page)).toBe(LIGHT_BASE);
      await expect(toggle(page)).toHaveCount(1);
      await expect(toggle(page)).toHaveAccessibleName('テーマ: ダーク');
      await context.close();
    });
  });
}
