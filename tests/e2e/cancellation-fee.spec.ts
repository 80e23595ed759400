/**
 * Fees are never a surprise: with the server's clock at 19:10 (SUGU_CLOCK) and a store that charges
 * ¥2,000 per person within two hours of the start, the confirmation before booking and the cancel
 * confirmation say what applies now — inside the window (charged from the moment it is booked) and
 * outside it (free until two hours before) — as the server computed it, with JavaScript and without.
 */
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';

type Fee = { applies: 'none' | 'free' | 'due'; per_person: number; message: string };
type Slot = { start: string; free_tables: number; cancellation_fee: Fee };

const DAY = 24 * 3600_000;
/** YYYY-MM-DD of the Tokyo business day `days` from now (the day starts at 05:00). */
const businessDay = (days: number) => new Date(Date.now() + 9 * 3600_000 - 5 * 3600_000 + days * DAY).toISOString().slice(0, 10);
// The server believes it is 19:10 tomorrow: dinner time, whatever the hour the suite runs at.
const today = businessDay(1);
const clockAt = new Date(`${today}T19:10:00+09:00`);

let server: SpawnedServer;
let dataDir = '';
let base = '';
/** A store charging ¥2,000 per person within two hours, with a start inside that window today and one outside it tomorrow. */
let store: { id: number; inside: Slot; outside: Slot };

test.describe.configure({ mode: 'serial', timeout: 120_000 });

async function slots(request: APIRequestContext, id: number, date: string): Promise<Slot[]> {
  const res = await request.get(`${base}/api/stores/${id}/availability?date=${date}&party=2`, { headers: { 'accept-language': 'ja' } });
  return res.ok() ? ((await res.json()) as { slots: Slot[] }).slots.filter((s) => s.free_tables >= 2) : [];
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-fee-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString(), ...NO_BOOKING_LIMITS });
  base = server.base;
  const request = await playwright.request.newContext();
  for (let id = 1; id < 400 && !store; id++) {
    const inside = (await slots(request, id, today)).find((s) => s.cancellation_fee.applies === 'due' && s.cancellation_fee.per_person === 2000);
    const outside = inside && (await slots(request, id, businessDay(2))).find((s) => s.cancellation_fee.applies === 'free');
    if (inside && outside) store = { id, inside, outside };
  }
  await request.dispose();
  expect(store, 'a demo store charging ¥2,000 within two hours, free at 19:10–21:10').toBeTruthy();
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const bookingUrl = (mode: 'booking' | 'booking-without', s: Slot) => `${base}/store/${store.id}/${mode}?party=2&start=${encodeURIComponent(s.start)}`;

test('signed in: the confirmation and the cancel dialog state the fee inside and outside the free window', async ({ page }) => {
  const signup = await page.request.post(`${base}/api/users`, { data: { name: '料金 花子', email: `fee-${Date.now()}@example.jp`, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);

  // Outside the window: free until two hours before the start.
  await page.goto(bookingUrl('booking', store.outside));
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('fee')).toHaveText(store.outside.cancellation_fee.message);
  await expect(confirm.getByTestId('fee')).toContainText(/までは無料でキャンセルできます。それ以降はお一人様¥2,000（合計¥4,000）/);

  // Inside: booked at 19:10 for a start before 21:10, it is charged from the moment it is made.
  await page.goto(bookingUrl('booking', store.inside));
  await expect(confirm.getByTestId('fee')).toHaveText('このお時間はすでにキャンセル料の対象です。予約後にキャンセルすると、お一人様¥2,000（合計¥4,000）がかかります。');
  await expect(confirm.getByTestId('fee')).toHaveAttribute('data-applies', 'due');
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  await expect(page).toHaveURL(/\/booking\/complete\/\d+$/);
  const inside = Number(page.url().match(/(\d+)$/)![1]);

  await page.goto(`${base}/store/${store.id}/booking/edit/${inside}`);
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  const ask = page.getByRole('alertdialog', { name: 'この予約をキャンセルしますか？' });
  await expect(ask.getByTestId('fee')).toHaveText('今キャンセルすると、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');
  await ask.getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByTestId('edit-done')).toHaveText('予約をキャンセルしました');
  await expect(page.getByTestId('booking-fee')).toHaveText('このキャンセルには、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');

  // The booking outside the window: its cancel dialog says it is still free, and until when.
  const made = await page.request.post(`${base}/api/bookings`, { data: { store_id: store.id, start: store.outside.start, party_size: 2 }, headers: { 'accept-language': 'ja' } });
  expect(made.status()).toBe(201);
  const outside = (await made.json()) as { id: number; cancellation_fee: Fee };
  await page.goto(`${base}/store/${store.id}/booking/edit/${outside.id}`);
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  await expect(ask.getByTestId('fee')).toHaveText(outside.cancellation_fee.message);
  await expect(ask.getByTestId('fee')).toContainText('までは無料でキャンセルできます。');
  await ask.getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByTestId('booking-fee')).toHaveText('このキャンセルにキャンセル料はかかりません。');
});

test('without JavaScript: a guest’s confirmation and the plain cancel page state the fee', async ({ browser }: { browser: Browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', viewport: { width: 412, height: 915 }, isMobile: true });
  const page = await context.newPage();
  await page.goto(bookingUrl('booking-without', store.inside));
  await page.getByLabel('お名前').fill('無効 太郎');
  await page.getByLabel('フリガナ').fill('ムコウ タロウ');
  await page.getByLabel('電話番号').fill('090-5555-4321');
  await page.getByLabel('メールアドレス').fill(`fee-nojs-${Date.now()}@example.jp`);
  await page.getByRole('button', { name: '確認へ進む' }).click();
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('fee')).toHaveText('このお時間はすでにキャンセル料の対象です。予約後にキャンセルすると、お一人様¥2,000（合計¥4,000）がかかります。');
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  const done = page.getByTestId('booking-done');
  await expect(done.getByTestId('fee')).toHaveText('今キャンセルすると、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');

  const link = new URL((await done.getByTestId('edit-link').getAttribute('href'))!);
  await page.goto(`${base}${link.pathname}${link.search}`);
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask.getByTestId('fee')).toHaveText('今キャンセルすると、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');
  await context.close();
});
