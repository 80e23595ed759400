import { expect, test, type Page } from '@playwright/test';
import { UI_GROUPS } from '../../src/template/data/uiPages';

/**
 * The template layer (issue 7). This machine has no network: the icon stylesheets (cdn.jsdelivr.net)
 * and map tiles are answered locally so a missing network is not mistaken for a page error.
 */

/** Every template route with a selector only that page renders (its own content, not the not-found screen). */
const TEMPLATE_ROUTES: { path: string; marker: string }[] = [
  { path: '/dashboard/analytics', marker: '[data-testid=card-supportTickets]' },
  { path: '/apps/email', marker: '[data-testid=email-list]' },
  { path: '/apps/email/inbox', marker: '[data-testid=email-list]' },
  { path: '/apps/chat', marker: '[data-testid=chat-log]' },
  { path: '/apps/chat/channel/general', marker: '[data-testid=chat-channel]' },
  { path: '/apps/todo', marker: '[data-testid=todo-completed]' },
  { path: '/apps/board', marker: '[data-testid=column-TESTING]' },
  { path: '/ecommerce/list', marker: '[data-testid=shop-filters]' },
  { path: '/ecommerce/product-details', marker: '[data-testid=quantity]' },
  { path: '/ecommerce/orders', marker: '[data-testid=orders-table]' },
  { path: '/ecommerce/cart', marker: '[data-testid=cart-summary]' },
  { path: '/users/list', marker: '[data-testid=users-table]' },
  { path: '/users/edit', marker: 'form[data-user-form]' },
  { path: '/auth/verify-email', marker: '[data-verify]' },
  { path: '/blank', marker: '[data-testid=blank-canvas]' },
  { path: '/ui/colors', marker: '[data-testid=colour-swatches]' },
  { path: '/ui/grids', marker: '[data-testid=grid-demos]' },
  ...Object.entries(UI_GROUPS).flatMap(([group, pages]) => pages.map((page) => ({ path: `/ui/${group}/${page}`, marker: `[data-ui-page="${page}"]` }))),
];

async function offlineCdn(page: Page) {
  await page.route(/^https:\/\/cdn\.jsdelivr\.net\//, (r) => r.fulfill({ status: 200, contentType: 'text/css', body: '/* offline */' }));
  await page.route(/tile\.openstreetmap\.org\//, (r) =>
    r.fulfill({
      status: 200,
      contentType: 'image/png',
      body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
    }),
  );
}

/** Console errors (CSP violations are reported there too) and uncaught exceptions. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

async function useEnglish(page: Page, baseURL: string, theme: 'light' | 'dark' = 'light') {
  await page.context().addCookies([
    { name: 'locale', value: 'en', url: baseURL },
    { name: 'theme', value: theme, url: baseURL },
  ]);
}

for (const theme of ['light', 'dark'] as const) {
  test(`every template route renders its own content in the ${theme} theme without console errors`, async ({ page, baseURL }) => {
    // Dozens of routes in one test: about 2 minutes on a quiet 2-core machine, over 3 on a busy one.
    test.setTimeout(360_000);
    await offlineCdn(page);
    await useEnglish(page, baseURL!, theme);
    const errors = collectErrors(page);
    expect(TEMPLATE_ROUTES.length).toBe(71);
    for (const route of TEMPLATE_ROUTES) {
      const response = await page.goto(route.path, { waitUntil: 'load' });
      expect(response?.status(), route.path).toBe(200);
      await expect(page.locator('html'), route.path).toHaveAttribute('data-theme', theme);
      await expect(page.locator(route.marker).first(), route.path).toBeAttached();
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
    }
    expect(errors).toEqual([]);
  });
}

test('unknown template pages show the not-found screen', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  for (const path of [
    '/ui/components/nope',
    '/ui/nope/alerts',
    '/apps/email/spam',
    '/apps/chat/channel/nope',
    '/dashboard/nope',
    '/ecommerce/nope',
    '/users/nope',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  }
});

test('shell: menu groups, quick menus, ten locales, ctrl + / search, footer', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/analytics');
  const menu = page.getByTestId('side-menu');
  for (const group of ['Dashboard', 'Apps', 'UI Theme Preview', 'Pages', 'Other']) await expect(menu.locator('.menu-title', { hasText: group })).toBeVisible();
  await expect(menu.locator('[data-key="template.menu.disabled"]')).toHaveAttribute('aria-disabled', 'true');
  await menu.getByText('Menu Levels').click();
  await menu.getByText('Level 2 group').click();
  await expect(menu.getByRole('link', { name: 'Level 3 item A' })).toBeVisible();
  await expect(page.getByText('compared with last week').first()).toBeVisible();

  await page.getByTestId('apps-menu').locator('summary').click();
  await expect(page.getByTestId('apps-menu').getByRole('link')).toHaveText([/Email inbox/, /Tasks/, /Chat #general/, /Board/]);
  await page.getByTestId('user-menu').locator('summary').click();
  await expect(page.getByTestId('user-menu').getByRole('link')).toHaveText(['Profile', 'Email', 'Todo', 'Chat', 'Board']);

  await page.keyboard.press('Control+/');
  await expect(page.getByTestId('toolbar-search')).toBeFocused();
  await page.getByTestId('toolbar-search').fill('Board');
  await page.getByTestId('toolbar-search').press('Enter');
  await expect(page).toHaveURL(/\/apps\/board$/);

  const docs = page.getByTestId('docs-link');
  await expect(docs).toHaveAttribute('target', '_blank');
  await expect(docs).toHaveAttribute('rel', /noopener/);
  await expect(page.getByTestId('template-version')).toHaveText('v1.3.0');

  await page.getByTestId('locale-menu').locator('summary').click();
  await expect(page.getByTestId('locale-menu').locator('button[data-flag]')).toHaveCount(10);
  await page
    .getByTestId('locale-menu')
    .getByRole('button', { name: /Deutsch/ })
    .click();
  await expect(page).toHaveURL(/\/apps\/board$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});

test('settings drawer: choices apply at once and the server renders them after a reload (no flash)', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/ecommerce/cart');
  await expect(page.getByTestId('cart-total')).toHaveText(/^\$/);
  await expect(page.locator('html')).toHaveAttribute('data-tpl-settings-ready', 'true');
  await page.getByTestId('settings-open').click();
  const drawer = page.getByTestId('settings-drawer');
  await expect(drawer).toBeVisible();
  await drawer.getByTestId('setting-theme-dark').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await drawer.getByTestId('setting-rtl').check();
  await expect(page.locator('#tpl-shell')).toHaveAttribute('dir', 'rtl');
  await drawer.getByTestId('setting-toolbarDetached').check();
  await drawer.getByTestId('setting-contentBoxed').check();
  await drawer.getByTestId('setting-primary-indigo').click();
  await expect(page.locator('#tpl-shell')).toHaveAttribute('data-primary', 'indigo');
  await drawer.getByTestId('setting-currency').selectOption('EUR');
  await expect(page.getByTestId('cart-total')).toHaveText(/ €$/);

  // The HTML the server sends already carries every choice.
  const html = await (await page.request.get('/blank')).text();
  expect(html).toContain('data-theme="dark"');
  expect(html).toMatch(/id="tpl-shell"[^>]*dir="rtl"/);
  expect(html).toMatch(/data-toolbar-detached="true"/);
  expect(html).toMatch(/data-content-boxed="true"/);
  expect(html).toMatch(/data-primary="indigo"/);

  await page.goto('/users/list');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('#tpl-shell')).toHaveAttribute('dir', 'rtl');
  // In RTL the side menu sits on the right.
  const menu = await page.getByTestId('side-menu').boundingBox();
  expect(menu!.x).toBeGreaterThan(1280 / 2);

  await page.getByTestId('settings-open').click();
  await page.getByTestId('setting-rtl').uncheck();
  await expect(page.locator('#tpl-shell')).toHaveAttribute('dir', 'ltr');
  await page.getByTestId('setting-theme-light').click();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('#tpl-shell')).toHaveAttribute('dir', 'ltr');
  expect((await page.getByTestId('side-menu').boundingBox())!.x).toBeLessThan(1280 / 2);
});

test('a broken settings cookie falls back to the defaults', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await page.context().addCookies([{ name: 'settings', value: encodeURIComponent('{"rtl":true,"currency":"EUR"'), url: baseURL! }]);
  await page.goto('/ecommerce/cart');
  await expect(page.locator('#tpl-shell')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByTestId('cart-total')).toHaveText(/^\$/);
  await page.context().addCookies([{ name: 'settings', value: encodeURIComponent('{"rtl":"yes","currency":"JPY","primary":"indigo"}'), url: baseURL! }]);
  await page.goto('/ecommerce/cart');
  await expect(page.locator('#tpl-shell')).toHaveAttribute('data-primary', 'indigo');
  await expect(page.locator('#tpl-shell')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByTestId('cart-total')).toHaveText(/^\$/);
});

test('kanban: move a card by drag and by keyboard; delete asks first', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/apps/board');
  const todo = page.getByTestId('column-TODO');
  const progress = page.getByTestId('column-INPROGRESS');
  const testing = page.getByTestId('column-TESTING');
  await expect(todo.getByRole('heading', { name: /TO DO/ })).toBeVisible();
  const title = 'Write the release notes';
  const card = todo.getByTestId('kanban-card').filter({ hasText: title });
  await expect(card).toBeVisible();

  await card.dragTo(progress);
  await expect(progress.getByTestId('kanban-card').filter({ hasText: title })).toBeVisible();
  await expect(todo.getByTestId('kanban-card').filter({ hasText: title })).toHaveCount(0);

  await progress.getByTestId('kanban-card').filter({ hasText: title }).focus();
  await page.keyboard.press('ArrowRight');
  const inTesting = testing.getByTestId('kanban-card').filter({ hasText: title });
  await expect(inTesting).toBeVisible();
  await expect(inTesting).toBeFocused();
  await expect(page.getByTestId('board-announcement')).toHaveText(/moved to TESTING/);
  await page.keyboard.press('ArrowLeft');
  const target = progress.getByTestId('kanban-card').filter({ hasText: title });
  await expect(target).toBeVisible();

  await target.getByRole('button', { name: /Delete/ }).click();
  const dialog = page.getByTestId('delete-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Are you sure you want to delete this card?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(target).toBeVisible();
  await target.getByRole('button', { name: /Delete/ }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('kanban-card').filter({ hasText: title })).toHaveCount(0);
});

test('users table: search with no match, sort and paging; empty table', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await page.goto('/users/list');
  const table = page.getByTestId('users-table');
  await expect(table.locator('tbody tr')).toHaveCount(5);
  await expect(page.getByTestId('table-range')).toHaveText('1–5 / 12');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('table-range')).toHaveText('6–10 / 12');
  await table.getByRole('button', { name: /Name/ }).click();
  await expect(table.locator('thead th').first()).toHaveAttribute('aria-sort', 'descending');
  await page.getByTestId('table-search').fill('olivia');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table).toContainText('olivia@example.com');
  await page.getByTestId('table-search').fill('no-such-person-xyz');
  await expect(page.getByTestId('table-empty')).toHaveText('No matching records found');
  await page.goto('/ui/tables/data-tables');
  await expect(page.getByText('No data available')).toBeVisible();
});

/** The demo apps are islands: typing or pressing Enter before one hydrates is lost (a busy machine hydrates late). */
const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

test('demo apps: email folders and labels, todo completed group, chat, shop filters, verify email', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await page.goto('/apps/email/trash');
  await expect(page.getByTestId('email-empty')).toHaveText(/Empty email list/);
  await page.goto('/apps/email/inbox?label=invoice');
  await expect(page.getByTestId('email-list').locator('li')).toHaveCount(2);

  await page.goto('/apps/todo');
  await hydrated(page);
  const completed = page.getByTestId('todo-completed');
  await expect(completed.locator('li')).toHaveCount(2);
  await page.getByLabel('Prepare the kickoff slides').check();
  await expect(completed.locator('li')).toHaveCount(3);

  await page.goto('/apps/chat/channel/general');
  await hydrated(page);
  await page.getByTestId('chat-input').fill('Hello from the test');
  await page.getByTestId('chat-input').press('Enter');
  await expect(page.getByTestId('chat-log')).toContainText('Hello from the test');

  await page.goto('/ecommerce/list');
  await hydrated(page);
  await expect(page.getByTestId('shop-count')).toHaveText('8 of 8');
  await page.getByLabel('In stock').check();
  await page.getByLabel('Free shipping').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('shop-count')).toHaveText('3 of 8');
  await expect(page.getByTestId('product')).toHaveCount(3);

  await page.goto('/ecommerce/product-details?id=1');
  await hydrated(page);
  await page.getByTestId('quantity').fill('2');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Added to cart.')).toBeVisible();

  await page.goto('/auth/verify-email');
  await expect(page.getByText('Verifying email address...')).toBeVisible();
  await expect(page.getByText('Email verified! Redirecting...')).toBeVisible();
  await page.waitForURL('**/dashboard/analytics');
});

test('no analytics tag without PUBLIC_ANALYTICS_ID; icon stylesheets only on icon pages; Leaflet map without a maps key', async ({ page, baseURL }) => {
  await useEnglish(page, baseURL!);
  await offlineCdn(page);
  const blank = await (await page.request.get('/blank')).text();
  expect(blank).not.toContain('googletagmanager');
  expect(blank).not.toContain('tpl-analytics');
  expect(blank).not.toContain('cdn.jsdelivr.net');
  const icons = await (await page.request.get('/ui/icons/usage')).text();
  expect(icons.match(/<link rel="stylesheet" href="https:\/\/cdn\.jsdelivr\.net\/[^"]+"/g)).toHaveLength(4);
  const boxicons = await (await page.request.get('/ui/icons/boxicons')).text();
  expect(boxicons.match(/<link rel="stylesheet" href="https:\/\/cdn\.jsdelivr\.net\/[^"]+"/g)).toHaveLength(1);
  await page.goto('/ui/maps/google-maps');
  await expect(page.getByTestId('map')).toHaveAttribute('data-provider', 'leaflet');
  await expect(page.getByTestId('map')).toHaveAttribute('data-ready', 'true');
});

test.describe('with PUBLIC_ANALYTICS_ID and PUBLIC_MAPS_KEY set', () => {
  // A second server of the same build, started with the two build settings the spec names.
  const port = Number(process.env.E2E_PORT) + 1000;
  const origin = `http://127.0.0.1:${port}`;
  let server: import('node:child_process').ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const { spawn } = await import('node:child_process');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    server = spawn(process.execPath, ['dist/server/entry.mjs'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'sugu-tpl-')),
        PUBLIC_ANALYTICS_ID: 'G-TEST123',
        PUBLIC_MAPS_KEY: 'test-key',
        SUGU_LOG_REQUESTS: '0',
        NODE_ENV: 'production',
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 240; i++) {
      if (
        await fetch(`${origin}/readyz`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('second server did not start');
  });
  test.afterAll(() => {
    server?.kill();
  });

  test('the gtag snippet and Google Maps load and the CSP allows them', async ({ page }) => {
    const loaded: string[] = [];
    // No network here: answer the two Google scripts locally, as small stand-ins.
    await page.route(/^https:\/\/www\.googletagmanager\.com\//, (r) => {
      loaded.push(r.request().url());
      return r.fulfill({ status: 200, contentType: 'text/javascript', body: 'window.__gtagLoaded = true;' });
    });
    await page.route(/^https:\/\/maps\.googleapis\.com\//, (r) => {
      loaded.push(r.request().url());
      return r.fulfill({
        status: 200,
        contentType: 'text/javascript',
        body: 'window.google={maps:{Map:function(el){el.dataset.ready="true"},Marker:function(){}}};window.tplInitMap();',
      });
    });
    await page.context().addCookies([{ name: 'locale', value: 'en', url: origin }]);
    const errors = collectErrors(page);
    await page.goto(`${origin}/blank`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __gtagLoaded?: boolean }).__gtagLoaded)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { dataLayer: unknown[] }).dataLayer.length)).toBeGreaterThan(0);
    expect(loaded[0]).toContain('id=G-TEST123');
    await page.goto(`${origin}/ui/maps/google-maps`);
    await expect(page.getByTestId('map')).toHaveAttribute('data-provider', 'google');
    await expect(page.getByTestId('map')).toHaveAttribute('data-ready', 'true');
    expect(loaded.some((u) => u.includes('key=test-key'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
