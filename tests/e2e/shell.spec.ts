import { expect, test } from '@playwright/test';
import fs from 'node:fs';

test.describe('bottom navigation', () => {
  test('shows the five tabs in Japanese, marks the current one and works by keyboard', async ({ page }) => {
    await page.goto('/home');
    const nav = page.getByRole('navigation', { name: 'メインナビゲーション' });
    await expect(nav.getByRole('link')).toHaveText(['ホーム', 'お気に入り', '閲覧履歴', '予約履歴', 'ログイン']);
    await expect(nav.getByRole('link', { name: 'ホーム' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'ログイン' })).toHaveAttribute('href', '/auth/signin');
    await nav.getByRole('link', { name: '予約履歴' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/booking-list$/);
  });

  test('the home tab clears the stored search session', async ({ page }) => {
    await page.goto('/term');
    await page.evaluate(() => {
      localStorage.setItem('search:keyword', '焼肉');
      localStorage.setItem('search:page', '3');
      localStorage.setItem('search:areaName', '渋谷');
      localStorage.setItem('search:searchData', '{"genre":"yakiniku"}');
    });
    await page.goto('/home');
    await page.getByRole('link', { name: 'ホーム' }).click();
    await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('search:')))).toEqual([]);
  });

  test('tapping the tab of the page shown reloads it', async ({ page }) => {
    await page.goto('/home');
    await page.evaluate(() => ((window as { marker?: number }).marker = 1));
    await Promise.all([page.waitForEvent('load'), page.getByRole('link', { name: 'ホーム' }).click()]);
    expect(await page.evaluate(() => (window as { marker?: number }).marker)).toBeUndefined();
    expect(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type)).toBe('reload');
  });

  test('a stale local sign-in is cleared when the server has no session', async ({ page }) => {
    await page.goto('/term');
    await page.evaluate(() => localStorage.setItem('tokenBr', JSON.stringify({ tenant: null, userId: 42, storeId: null })));
    await page.goto('/home');
    await expect(page.getByRole('navigation', { name: 'メインナビゲーション' }).getByRole('link').last()).toHaveText('ログイン');
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('tokenBr') ?? '{}').userId)).toBeNull();
  });
});

test.describe('toasts', () => {
  test('a redirect carries a one-time message: normal (black) after a theme change', async ({ page }) => {
    await page.goto('/home');
    await page.getByTestId('theme-toggle').filter({ visible: true }).click();
    const toast = page.getByRole('status').filter({ hasText: 'ダークテーマに切り替えました' });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute('data-kind', 'normal');
    await expect(toast).toHaveAttribute('data-timeout', '3000');
    expect(await toast.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(toast).toBeHidden({ timeout: 6000 });
    await page.reload();
    await expect(page.getByText('ダークテーマに切り替えました')).toHaveCount(0);
  });

  test('success after a language change', async ({ page }) => {
    await page.goto('/home');
    await expect(page.locator('form[action="/preferences"][data-autosubmit="on"]')).toHaveCount(1); // the picker listens
    await page.getByTestId('locale-select').selectOption('en');
    const toast = page.getByRole('status').filter({ hasText: 'Language changed to English' });
    await expect(toast).toHaveAttribute('data-kind', 'success');
    await expect(toast).toHaveAttribute('data-timeout', '3000');
  });

  test('an island whose code cannot load shows an error toast that stays until closed', async ({ page }) => {
    await page.route(/\/_astro\/BottomNav\.[^/?]+\.js(\?.*)?$/, (route) => route.abort());
    await page.goto('/home');
    const toast = page.getByRole('alert').filter({ hasText: '画面の部品を読み込めませんでした' });
    await expect(toast).toBeVisible({ timeout: 15_000 });
    await expect(toast).toHaveAttribute('data-kind', 'error');
    await expect(toast).toHaveAttribute('data-timeout', '0');
    await toast.getByRole('button', { name: '閉じる' }).click();
    await expect(toast).toBeHidden();
  });
});

test.describe('locale', () => {
  test('switches language, sets lang, and writes Arabic right to left', async ({ page }) => {
    await page.goto('/home');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    // Each language by its own name, with no flag in front of it.
    await expect(page.getByTestId('locale-select').locator('option')).toHaveText([
      '日本語',
      'English',
      'Español',
      'Português',
      'Deutsch',
      'Français',
      'العربية',
      '한국어',
      'Русский',
      '中文',
    ]);
    await expect(page.locator('form[action="/preferences"][data-autosubmit="on"]')).toHaveCount(1); // the picker listens
    await page.getByTestId('locale-select').selectOption('en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link').first()).toHaveText('Home');
    await expect(page.locator('form[action="/preferences"][data-autosubmit="on"]')).toHaveCount(1); // the picker listens
    await page.getByTestId('locale-select').selectOption('ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  });

  test('starts from the browser language and falls back to English', async ({ browser }) => {
    const fr = await browser.newContext({ locale: 'fr-FR' });
    const p1 = await fr.newPage();
    await p1.goto('/home');
    await expect(p1.locator('html')).toHaveAttribute('lang', 'fr');
    await fr.close();
    const it = await browser.newContext({ locale: 'it-IT' });
    const p2 = await it.newPage();
    await p2.goto('/home');
    await expect(p2.locator('html')).toHaveAttribute('lang', 'en');
    await it.close();
  });
});

test.describe('redirects, guards and errors', () => {
  test('/ goes to /home; guarded pages go to sign-in with where the guest was going', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    for (const path of ['/account-info', '/favourite', '/viewed-list', '/user-change-password', '/user-leave-association', '/store/1/booking']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/auth/signin\\?next=${encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
  });

  test('store-manager paths leave for the store host', async ({ page }) => {
    const res = await page.request.get('/list-seat-manage?shop=3', { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toBe(`http://store.localhost:${process.env.E2E_PORT}/list-seat-manage?shop=3`);
  });

  test('an unknown path shows the not-found screen with 404', async ({ page }) => {
    const res = await page.goto('/this/does/not/exist');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません');
    await page.getByRole('link', { name: 'ホームに戻る' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('pages satisfy their Content-Security-Policy', async ({ page }) => {
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    for (const path of ['/home', '/term', '/utility/help', '/error/not-found', '/auth/signin']) {
      await page.goto(path);
      await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
    }
    expect(violations).toEqual([]);
  });
});

test('screenshots of /home at phone width, light and dark', async ({ page }) => {
  fs.mkdirSync('test-results/screenshots', { recursive: true });
  await page.goto('/home');
  await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
  await page.screenshot({ path: 'test-results/screenshots/home-light.png', fullPage: true });
  await page.getByTestId('theme-toggle').filter({ visible: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.waitForLoadState('load'); // not networkidle: listing pages hold a live-availability stream open
  await page.screenshot({ path: 'test-results/screenshots/home-dark.png', fullPage: true });
  expect(fs.statSync('test-results/screenshots/home-dark.png').size).toBeGreaterThan(5000);
});
