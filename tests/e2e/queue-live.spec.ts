/**
 * 順番待ち on the phone: a diner joins the demo store's queue from its page with the plain form,
 * sees 「1組待ち」 and the wait as a range; when the party ahead leaves, the page says 「次はあなたの
 * 番です」 without a reload (the store's live stream); then the diner leaves in one tap. The page has
 * no serious accessibility fault, light and dark.
 *
 * Then the call: staff call the next party from the ledger on the door tablet (the store host, 1024x768),
 * the diner's phone page shows the call without a tap, the diner confirms within the window and
 * lands on the booking's page; the ledger with its queue panel has no serious accessibility fault.
 *
 * The server is the test's own, its clock at 19:10 tomorrow (SUGU_CLOCK); the store is set to take
 * a queue always (its setting), so the test does not depend on the demo data being full.
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { businessDay } from '../helpers/free-start';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { queuePaths } from '../../src/lib/contract/queue';

const clockAt = new Date(`${businessDay(1)}T19:10:00+09:00`);

let server: SpawnedServer;
let dataDir = '';
let storeId = 0;

test.use({ ...devices['Pixel 7'], locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(200_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-queue-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString(), ...NO_BOOKING_LIMITS });
  const request = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { 'accept-language': 'ja', origin: server.base } });
  try {
    const login = await request.post('/api/login', { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
    expect(login.status()).toBe(200);
    const answer = (await login.json()) as { store_id: number; token: string };
    storeId = answer.store_id;
    const set = await request.put('/api/store/arrivals', {
      headers: { authorization: `Bearer ${answer.token}` },
      data: { store_id: storeId, grace_minutes: 15, auto_release: false, queue_mode: 'always' },
    });
    expect(set.status()).toBe(200);
  } finally {
    await request.dispose();
  }
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

test('a diner joins from the phone, sees 1組待ち, moves up live when the party ahead leaves, and leaves in one tap', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  // The party ahead joined through the API as a guest.
  const api = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { 'accept-language': 'ja', origin: server.base } });
  const ahead = (await (await api.post(`/api/stores/${storeId}/queue`, { data: { party_size: 2, name: '先頭 花子', phone: '090-3333-0001' } })).json()) as {
    entry: { id: number };
    token: string;
  };

  await page.goto(`${server.base}/store/${storeId}`);
  const form = page.getByTestId('queue-join');
  await expect(form.getByRole('heading', { name: '順番待ちに並ぶ' })).toBeVisible();
  await form.getByLabel('お名前').fill('順番 太郎');
  await form.getByLabel('電話番号').fill('090-3333-0002');
  await form.getByRole('button', { name: '順番待ちに並ぶ' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('順番待ち');
  await expect(page.getByTestId('queue-ahead')).toHaveText('1組待ち');
  await expect(page.getByTestId('queue-estimate')).toHaveText(/^待ち時間の目安：約\d+〜\d+分$/);
  await expect(page.locator('[data-queue-live]')).toHaveAttribute('data-following', 'true');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect([scheme, await seriousViolations(page)]).toEqual([scheme, []]);
  }
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

  // The party ahead leaves: this page moves up without a reload.
  const left = await api.delete(`/api/queue/${ahead.entry.id}`, { headers: { 'x-queue-token': ahead.token } });
  expect(left.status()).toBe(200);
  await api.dispose();
  await expect(page.getByTestId('queue-ahead')).toHaveText('次はあなたの番です');
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);

  await page.getByTestId('queue-leave').click();
  await expect(page.getByText('この順番待ちは取り消されています。')).toBeVisible();
  await expect(page.getByTestId('queue-leave')).toHaveCount(0);
});

test('staff call the party from the tablet; the phone shows the call at once, and confirming opens the booking', async ({ page, playwright, browser }) => {
  test.setTimeout(150_000);
  const api = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { 'accept-language': 'ja', origin: server.base } });
  const name = `呼出 ${Date.now() % 100000}`;
  const joined = await api.post(`/api/stores/${storeId}/queue`, { data: { party_size: 2, name, phone: '090-3333-0003' } });
  expect(joined.status()).toBe(201);
  const { entry, token } = (await joined.json()) as { entry: { id: number }; token: string };
  await api.dispose();

  // The diner's phone: the page from the link, following the store's stream.
  await page.goto(`${server.base}${queuePaths.link(entry.id, token)}`);
  await expect(page).toHaveURL(`${server.base}${queuePaths.page(entry.id)}`);
  await expect(page.locator('[data-queue-live]')).toHaveAttribute('data-following', 'true');
  await expect(page.getByTestId('queue-claim')).toHaveCount(0);

  // The door tablet: the ledger's queue panel.
  const storeHost = `http://store.localhost:${new URL(server.base).port}`;
  const tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  try {
    const door = await tablet.newPage();
    await door.goto(`${storeHost}/store-signin`);
    await door.getByLabel('メールアドレス').fill(DEMO_STAFF.email);
    await door.getByLabel('パスワード').fill(DEMO_STAFF.password);
    await door.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(door.getByRole('heading', { level: 1 })).toHaveText('予約台帳');
    const row = door.getByTestId('queue-entry').filter({ hasText: name });
    await expect(row).toContainText('2名');
    await expect(row.getByTestId('queue-state')).toHaveText('待機中');
    await row.getByRole('button', { name: '呼び出す' }).click();
    await expect(door.getByTestId('store-flash')).toContainText(`${name} 様を呼び出しました`);
    await expect(row.getByTestId('queue-state')).toHaveText('呼び出し中');
    await expect(row.getByRole('button', { name: '着席' })).toBeVisible();
    await expect(row.getByRole('button', { name: '来店なし' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await door.emulateMedia({ colorScheme: scheme });
      expect([scheme, await seriousViolations(door)]).toEqual([scheme, []]);
    }

    // The phone shows the call by itself, with the deadline, and the diner confirms.
    await expect(page.getByTestId('queue-called')).toHaveText('お席の用意ができました。お店へお越しください。');
    await expect(page.getByTestId('queue-claim-by')).toContainText('までに「席に向かいます（確定）」を押してください');
    expect([await seriousViolations(page)]).toEqual([[]]);
    await page.getByRole('button', { name: '席に向かいます（確定）' }).click();
    await expect(page).toHaveURL(new RegExp(`/store/${storeId}/booking-without/edit/\\d+$`));
    await expect(page.getByText('お席を確定しました。このままお店へお越しください。')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ゲスト予約の変更');

    // The party is off the door's queue once seated.
    await door.reload();
    await expect(door.getByTestId('queue-entry').filter({ hasText: name })).toHaveCount(0);
  } finally {
    await tablet.close();
  }
});
