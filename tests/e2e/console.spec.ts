import { expect, test, type Page } from '@playwright/test';

/**
 * No console errors on any product page, signed out and signed in: a page the server renders for
 * the wrong sign-in state hydrates with React error #418 and flashes (the bottom tab read ログイン
 * for a signed-in diner until the island switched it to アカウント). Each page is checked once its
 * islands have hydrated and the browser has gone idle.
 */

const BOTH = ['/home', '/stores', '/stores?name=%E7%84%BC%E8%82%89', '/areas/1', '/store/1', '/store/1?party=4', '/booking-list', '/term', '/no-such-page'];
const SIGNED_OUT = ['/store/1/booking-without', '/auth/signin', '/auth/signup', '/auth/forgot-password', '/auth/reset-password'];
const SIGNED_IN = ['/store/1/booking', '/favourite', '/viewed-list', '/account-info', '/user-change-password', '/user-leave-association'];

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  // A missing page answers 404 on purpose, and the browser logs the document's status. (A reset link is
  // checked through the API, whose 400 for a bad token the browser logs too: the page is visited without one.)
  let documentFailed = false;
  page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) documentFailed = r.status() >= 400;
  });
  page.on('console', (m) => {
    if (m.type() !== 'error' || (documentFailed && m.text().startsWith('Failed to load resource'))) return;
    errors.push(`${new URL(page.url()).pathname}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${new URL(page.url()).pathname}: ${e.message}`));
  return errors;
}

/** Loads `path` and waits until every island that hydrates without being scrolled to has done so, and the page is idle. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  // React commits a hydration (and reports a mismatch) in tasks after the island's script ran.
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => requestIdleCallback(done))));
}

test('signed out: no console error on any product page', async ({ page }) => {
  const errors = collectErrors(page);
  for (const path of [...BOTH, ...SIGNED_OUT]) await visit(page, path);
  expect(errors).toEqual([]);
});

test('signed in: no console error on any product page, and the bottom tab is アカウント from the server', async ({ page, browser }) => {
  const errors = collectErrors(page);
  const signupEmail = `console-${Date.now()}@example.jp`;
  const signup = await page.request.post('/api/users', { data: { name: '検査 花子', email: signupEmail, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post('/api/login', { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  // The first page tells the browser who is signed in (local storage); every later page hydrates with it.
  for (const path of [...BOTH, ...SIGNED_IN]) await visit(page, path);
  expect(errors).toEqual([]);

  // Without JavaScript the server's own words show: the account tab, not ログイン.
  const cookies = await page.context().cookies();
  const plain = await browser.newContext({ javaScriptEnabled: false, locale: 'ja-JP', baseURL: new URL(page.url()).origin });
  await plain.addCookies(cookies);
  const p = await plain.newPage();
  await p.goto('/home');
  const nav = p.getByRole('navigation', { name: 'メインナビゲーション' });
  await expect(nav.getByRole('link', { name: 'アカウント' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'ログイン' })).toHaveCount(0);
  await plain.close();
});
