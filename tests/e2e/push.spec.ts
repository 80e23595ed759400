import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { startPushService, type TestPushService } from '../helpers/push';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import type { PushPayload } from '../../src/lib/contract/push';

/**
 * The installable app in Chromium (phone size, Japanese): the diner pages link a valid manifest
 * whose icons exist at their sizes; the service worker registers, keeps only the shell and static
 * assets, and shows the offline page in the language last read (Japanese, then English) when a page
 * cannot be reached. Notifications: the
 * account page gives the reason, the browser's permission is granted, and the device is
 * subscribed (through the page's own button where headless Chromium has a push service, else
 * through the API with a key pair made here), listed on the account page and removed there.
 * The server is the test's own, allowed to post to the test's push service on this machine.
 */

let server: SpawnedServer;
let push: TestPushService;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  push = await startPushService();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-push-'));
  server = await spawnServer({ DATA_DIR: dataDir, PUSH_ALLOW_LOCAL_ENDPOINTS: '1', ...NO_BOOKING_LIMITS });
});

test.afterAll(async () => {
  await server?.stop();
  await push?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Width and height from a PNG's IHDR. */
const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

test('the manifest is linked and valid, and its icons are there at their sizes', async ({ page }) => {
  await page.goto(`${server.base}/home`);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await page.request.get(`${server.base}${href}`);
  expect(res.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({
    name: 'すぐ予約',
    short_name: 'すぐ予約',
    start_url: '/home',
    display: 'standalone',
    theme_color: '#0096c7',
    background_color: '#ffffff',
  });
  expect(manifest.icons.some((i) => i.purpose === 'maskable' && i.type === 'image/png')).toBe(true);
  expect(manifest.icons.some((i) => i.sizes === '512x512' && i.purpose === 'any')).toBe(true);
  for (const icon of manifest.icons) {
    const file = await page.request.get(`${server.base}${icon.src}`);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toContain(icon.type);
    if (icon.type === 'image/png') {
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(await file.body()), icon.src).toEqual({ width: w, height: h });
    }
  }
});

test('the service worker keeps only the shell and shows the offline page, in the language last read, when the network is gone', async ({ page, context }) => {
  await page.goto(`${server.base}/home`);
  const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  // One address in every language: a change of language is a message to the worker, not a new worker.
  expect(new URL(script!).pathname + new URL(script!).search).toBe('/sw.js');
  // Once the worker controls the page, its assets pass through it (and are kept).
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await page.goto(`${server.base}/account-info`);
  const kept = () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
      return urls;
    });
  await expect.poll(kept).toContain('/offline?lang=ja');
  const shell = await kept();
  expect(shell.some((u) => u.startsWith('/_astro/'))).toBe(true);
  // Nothing but the shell: no page, no API answer, no account.
  for (const url of shell) expect(url).toMatch(/^(\/_astro\/|\/icons\/|\/favicon\.svg$|\/manifest\.webmanifest$|\/offline\?lang=ja$|\/sw-lang$)/);

  const offline = async (title: string, lead: string) => {
    await context.setOffline(true);
    try {
      await page.goto(`${server.base}/term`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.getByText(lead)).toBeVisible();
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);
    } finally {
      await context.setOffline(false);
    }
  };
  await offline('オフラインです', 'インターネットに接続されていません。');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('オフラインです');

  // The diner switches to English: the same worker keeps the English offline page instead.
  await context.addCookies([{ name: 'locale', value: 'en', url: server.base }]);
  await page.goto(`${server.base}/home`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect.poll(async () => (await kept()).filter((u) => u.startsWith('/offline'))).toEqual(['/offline?lang=en']);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(script);
  await offline('You are offline', 'There is no internet connection.');
});

test('notifications: the reason on the account page, a subscribed device listed there, and removed', async ({ page, context }) => {
  await context.grantPermissions(['notifications'], { origin: server.base });
  const login = await page.request.post(`${server.base}/api/login`, { data: { email: 'demo@sugu.jp', password: 'sugu-demo-2026' } });
  expect(login.status()).toBe(200);
  await page.goto(`${server.base}/account-info`);
  const optIn = page.locator('[data-push-optin]');
  await expect(optIn).toContainText('通知に出るのはお店の名前と時刻だけです');
  const button = optIn.getByRole('button', { name: 'この端末で通知を受け取る' });
  await expect(button).toBeVisible();

  // Headless Chromium may have no push service to subscribe with: then the API takes the subscription.
  const canSubscribe = await page.evaluate(async () => {
    try {
      const registration = await navigator.serviceWorker.ready;
      const key = (await (await fetch('/api/push/key')).json()) as { public_key: string };
      const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.public_key });
      await sub.unsubscribe();
      return true;
    } catch {
      return false;
    }
  });
  test.info().annotations.push({ type: 'subscribed through', description: canSubscribe ? 'the page’s button (pushManager)' : 'the API' });
  if (canSubscribe) {
    await button.click();
    await expect(optIn.locator('[data-push-status]')).toHaveText('この端末で通知を受け取ります');
  } else {
    const device = push.browser('/e2e/phone');
    const res = await page.request.post(`${server.base}/api/push/subscriptions`, {
      data: { ...device.subscription, label: 'Chrome / Android' },
      headers: { origin: server.base },
    });
    expect(res.status()).toBe(201);
  }
  await page.reload();
  const devices = page.getByTestId('push-device');
  await expect(devices).toHaveCount(1);
  const axe = await new AxeBuilder({ page }).include('[data-testid="push-devices"]').include('[data-push-optin]').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await devices.getByRole('button', { name: '解除' }).click();
  await expect(page.getByText('この端末への通知を解除しました')).toBeVisible();
  await expect(page.getByTestId('push-device')).toHaveCount(0);
  await expect(page.getByTestId('push-devices')).toContainText('通知を受け取る端末はありません。');
});

test('the page’s own button: offered where the browser has the Push API, and a subscription it cannot make explained in the page', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications'], { origin: server.base });
  const login = await page.request.post(`${server.base}/api/login`, { data: { email: 'demo@sugu.jp', password: 'sugu-demo-2026' } });
  expect(login.status()).toBe(200);
  await page.goto(`${server.base}/account-info`);
  // What the page asks of the browser before it offers the button: this Chromium has all of it.
  expect(await page.evaluate(() => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext)).toBe(true);
  const optIn = page.locator('[data-push-optin]');
  const button = optIn.getByRole('button', { name: 'この端末で通知を受け取る' });
  const status = optIn.locator('[data-push-status]');
  await expect(button).toBeVisible();
  await expect(status).toHaveText('');

  await button.click();
  const done = 'この端末で通知を受け取ります';
  const noService = 'このブラウザは通知の配信サービスにつながらないため、この端末では通知を受け取れません。別のブラウザでお試しください';
  // Headless Chromium has no push service, so subscribe() fails: the page says why, in the diner's
  // language. Where a push service answers, the device is subscribed instead.
  await expect(status).toHaveText(new RegExp(`^(${done}|${noService})$`));
  const said = await status.textContent();
  test
    .info()
    .annotations.push({ type: 'the button', description: said === done ? 'subscribed (a push service answered)' : 'explained the missing push service' });
  const saved = async () => ((await (await page.request.get(`${server.base}/api/push/subscriptions`)).json()) as { items: unknown[] }).items;
  if (said === done) {
    await expect(button).toBeHidden();
    expect(await saved()).toHaveLength(1);
    await page.reload();
    await page.getByTestId('push-device').getByRole('button', { name: '解除' }).click();
    await expect(page.getByTestId('push-device')).toHaveCount(0);
  } else {
    // Nothing was saved, and the button stays for another try (after a browser change, say).
    expect(await saved()).toEqual([]);
    await expect(button).toBeEnabled();
  }
});

test('a guest’s 順番待ち page offers the call on this phone; the entry’s subscription gets the store’s call, another guest’s entry is 404', async ({
  page,
  context,
  playwright,
}) => {
  test.setTimeout(120_000);
  // The demo store (open around the clock) takes a queue whatever its tables, so the test does not depend on the hour.
  const staff = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { origin: server.base } });
  const login = await staff.post('/api/login', { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
  expect(login.status()).toBe(200);
  const { store_id: storeId, token } = (await login.json()) as { store_id: number; token: string };
  const bearer = { authorization: `Bearer ${token}` };
  expect(
    (
      await staff.put('/api/store/arrivals', { headers: bearer, data: { store_id: storeId, grace_minutes: 15, auto_release: false, queue_mode: 'always' } })
    ).status(),
  ).toBe(200);

  // Another guest joined first, from another phone.
  const other = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { origin: server.base } });
  const first = await other.post(`/api/stores/${storeId}/queue`, { data: { party_size: 2, name: '先頭 花子', phone: '090-5555-0001' } });
  expect(first.status()).toBe(201);
  const theirs = ((await first.json()) as { entry: { id: number } }).entry.id;

  // This guest joins through the API in the phone's browser: the entry's cookies are the phone's.
  const joined = await page.request.post(`${server.base}/api/stores/${storeId}/queue`, {
    data: { party_size: 2, name: '順番 次郎', phone: '090-5555-0002' },
    headers: { origin: server.base },
  });
  expect(joined.status()).toBe(201);
  const mine = ((await joined.json()) as { entry: { id: number } }).entry.id;
  await context.grantPermissions(['notifications'], { origin: server.base });
  await page.goto(`${server.base}/queue/${mine}`);
  const optIn = page.locator('[data-push-optin]');
  await expect(optIn).toContainText('お店から呼び出されたとき、ページを閉じていてもこの端末にお知らせします。');
  await expect(optIn.getByRole('button', { name: 'この端末で通知を受け取る' })).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('[data-push-optin]').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Headless Chromium has no push service: the phone's subscription goes through the API, as the
  // button sends it, with a key pair made here.
  const at = `/e2e/queue-phone/${crypto.randomUUID()}`;
  const phone = push.browser(at);
  const follow = (id: number) =>
    page.request.post(`${server.base}/api/queue/${id}/push`, {
      data: { ...phone.subscription, label: 'Chrome / Android' },
      headers: { origin: server.base, 'accept-language': 'ja' },
    });
  expect((await follow(theirs)).status()).toBe(404);
  expect((await follow(mine)).status()).toBe(201);

  // The store calls the other guest, who leaves, then this one: only this call reaches this phone.
  expect((await staff.post(`/api/store/queue/${theirs}/call`, { headers: bearer })).status()).toBe(200);
  expect((await staff.post(`/api/store/queue/${theirs}/no-show`, { headers: bearer })).status()).toBe(200);
  expect((await staff.post(`/api/store/queue/${mine}/call`, { headers: bearer })).status()).toBe(200);
  await expect.poll(() => push.received.filter((r) => r.path === at).length).toBe(1);
  const payload = JSON.parse(phone.decrypt(push.received.find((r) => r.path === at)!.body)) as PushPayload;
  expect(payload.title).toMatch(/: お席の準備ができました$/);
  expect(payload.url).toBe(`/queue/${mine}`);
  // The notification opens this very page, which shows the call by itself.
  expect(new URL(page.url()).pathname).toBe(payload.url);
  await expect(page.getByTestId('queue-called')).toBeVisible();
  // Seated at the door: the entry ends (and its subscription with it), so the phone number may queue again.
  expect((await staff.post(`/api/store/queue/${mine}/seat`, { headers: bearer })).status()).toBe(200);
  await other.dispose();
  await staff.dispose();
});
