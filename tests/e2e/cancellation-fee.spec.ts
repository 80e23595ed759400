/**
 * Fees are never a surprise: with the server's clock at 19:10 (SUGU_CLOCK) and a store that charges
 * ¥2,000 per person within two hours of the start, the confirmation before booking and the cancel
 * confirmation say what applies now — inside the window (charged from the moment it is booked) and
 * outside it (free until two hours before) — as the server computed it, with JavaScript and without;
 * so do the starts offered after a lost race, and the confirmation of a change, in words for a change.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { bookAsAnotherDiner } from '../helpers/other-diner';
import { chooseStart } from '../helpers/start-picker';

type Fee = { applies: 'none' | 'free' | 'due'; per_person: number; message: string };
type Slot = { start: string; end: string; free_tables: number; cancellation_fee: Fee };

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

/** A phone in Japanese, in Tokyo, with or without JavaScript. */
const phone = (browser: Browser, javaScriptEnabled: boolean) =>
  browser.newContext({ javaScriptEnabled, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', viewport: { width: 390, height: 844 }, isMobile: true });

/** A guest's form opened at `slot`, filled in and sent to its confirmation. */
async function guestToConfirm(page: Page, slot: Slot, name: string, kana: string, tel: string) {
  await page.goto(bookingUrl('booking-without', slot));
  await page.getByLabel('お名前').fill(name);
  await page.getByLabel('フリガナ').fill(kana);
  await page.getByLabel('電話番号').fill(tel);
  await page.getByLabel('メールアドレス').fill(`fee-${tel}-${Date.now()}@example.jp`);
  await page.getByRole('button', { name: '確認へ進む' }).click();
}

test('signed in: the confirmation and the cancel dialog state the fee inside and outside the free window', async ({ page }) => {
  const signupEmail = `fee-${Date.now()}@example.jp`;
  const signup = await page.request.post(`${base}/api/users`, {
    data: { name: '料金 花子', email: signupEmail, password: 'correct-horse-battery', agree: true },
  });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post(`${base}/api/login`, { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);

  // Outside the window: free until two hours before the start.
  await page.goto(bookingUrl('booking', store.outside));
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('fee')).toHaveText(store.outside.cancellation_fee.message);
  await expect(confirm.getByTestId('fee')).toContainText(/までは無料でキャンセルできます。それ以降はお一人様¥2,000（合計¥4,000）/);

  // Inside: booked at 19:10 for a start before 21:10, it is charged from the moment it is made.
  await page.goto(bookingUrl('booking', store.inside));
  await expect(confirm.getByTestId('fee')).toHaveText(
    'このお時間はすでにキャンセル料の対象です。予約後にキャンセルすると、お一人様¥2,000（合計¥4,000）がかかります。',
  );
  await expect(confirm.getByTestId('fee')).toHaveAttribute('data-applies', 'due');
  // The booking is sent with an Idempotency-Key of its own.
  const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/bookings');
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  expect((await posted).headers()['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  await expect(page).toHaveURL(/\/booking\/complete\/\d+$/);
  const inside = Number(page.url().match(/(\d+)$/)![1]);

  await page.goto(`${base}/store/${store.id}/booking/edit/${inside}`);
  await page.getByRole('button', { name: '予約をキャンセル' }).click();
  const ask = page.getByRole('alertdialog', { name: 'この予約をキャンセルしますか？' });
  await expect(ask.getByTestId('fee')).toHaveText('今キャンセルすると、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');
  // The first cancel reaches the server but its answer is lost on the way back: the question stays
  // open, and answering it again sends the same key, so the server answers as it did the first time.
  const keys: string[] = [];
  await page.route(`${base}/api/bookings/${inside}`, async (route) => {
    if (route.request().method() !== 'DELETE') return route.continue();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    // The cancel reaches the server (once more if this side's own fetch met a closing keep-alive
    // socket: the same key, so the server still cancels once), then the answer is lost.
    await route.fetch().catch(() => route.fetch());
    await route.abort('connectionreset');
  });
  await ask.getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '通信に失敗しました' })).toBeVisible();
  await ask.getByRole('button', { name: 'キャンセルする' }).click();
  await expect(page.getByTestId('edit-done')).toHaveText('予約をキャンセルしました');
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  await page.unrouteAll();
  await expect(page.getByTestId('booking-fee')).toHaveText('このキャンセルには、お一人様¥2,000（合計¥4,000）のキャンセル料がかかります。');

  // The booking outside the window: its cancel dialog says it is still free, and until when.
  const made = await page.request.post(`${base}/api/bookings`, {
    data: { store_id: store.id, start: store.outside.start, party_size: 2 },
    headers: { 'accept-language': 'ja' },
  });
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
  const context = await phone(browser, false);
  const page = await context.newPage();
  await guestToConfirm(page, store.inside, '無効 太郎', 'ムコウ タロウ', '090-5555-4321');
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('fee')).toHaveText(
    'このお時間はすでにキャンセル料の対象です。予約後にキャンセルすると、お一人様¥2,000（合計¥4,000）がかかります。',
  );
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

/** A start as the page writes it: 21:30, or 翌0:15 after midnight. */
const shownAt = (iso: string) => new RegExp(`^(翌)?${Number(iso.slice(11, 13))}:${iso.slice(14, 16)}$`);

let guests = 0;
/** Guest bookings for two at `start`, each by a diner of their own, until no table is left: their ids and edit tokens. */
async function fill(start: string): Promise<{ id: number; edit_token: string }[]> {
  const made: { id: number; edit_token: string }[] = [];
  for (;;) {
    const n = ++guests;
    const contact = { name: '満席 太郎', name_kana: 'マンセキ タロウ', phone: `090-7777-${String(1000 + n)}`, email: `full-${n}-${Date.now()}@example.jp` };
    const res = await bookAsAnotherDiner(base, { ...contact, store_id: store.id, start, party_size: 2 });
    if (res.status === 409) return made;
    expect(res.status).toBe(201);
    made.push((await res.json()) as { id: number; edit_token: string });
    expect(made.length).toBeLessThan(30);
  }
}

/**
 * A start and the first start after its stay (`after`), both free for two now, on the first of
 * `days` (business days ahead) that has them: the store closes one weekday, so which day is open
 * depends on the day the suite runs.
 */
async function startAndNext(request: APIRequestContext, days: number[]): Promise<{ first: Slot; after: Slot }> {
  for (const n of days) {
    const day = await slots(request, store.id, businessDay(n));
    const first = day.find((s) => day.some((t) => Date.parse(t.start) === Date.parse(s.end)));
    if (first) return { first, after: day.find((t) => Date.parse(t.start) === Date.parse(first.end))! };
  }
  throw new Error(`no start whose stay ends at another free start, ${days.length} days tried`);
}

test('a lost race offers the next starts with their fees: one tapped is confirmed with it before the day reloads', async ({ page, request }) => {
  const signupEmail = `race-${Date.now()}@example.jp`;
  const signup = await page.request.post(`${base}/api/users`, {
    data: { name: '競争 花子', email: signupEmail, password: 'correct-horse-battery', agree: true },
  });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in (the mailed link does); the password just chosen does.
  expect((await page.request.post(`${base}/api/login`, { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
  // Days of their own: a race fills the tables for hours, which the change below needs free today.
  // Odd days for this test, even days for the no-JavaScript one: never the same day.
  const { first, after } = await startAndNext(request, [3, 5, 7]);
  // `after` is full when the page loads, so the day the island holds does not offer it.
  const atThen = await fill(after.start);
  const loaded = page.waitForResponse((r) => /\/api\/stores\/\d+\/availability/.test(r.url()));
  await page.goto(bookingUrl('booking', first));
  await loaded;
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('fee')).toHaveText(first.cancellation_fee.message);

  // The day's starts do not reload until the end: the offered start must bring its own fee.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/stores\/\d+\/availability/, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  for (const b of atThen)
    expect((await request.delete(`${base}/api/guest-bookings/${b.id}`, { headers: { 'x-booking-token': b.edit_token, origin: base } })).ok()).toBe(true);
  await fill(first.start);
  const lost = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/bookings' && r.request().method() === 'POST');
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  const answer = await lost;
  expect(answer.status()).toBe(409);
  const offered = ((await answer.json()) as { error: { next_slots: Slot[] } }).error.next_slots;
  expect(offered.some((s) => Date.parse(s.start) === Date.parse(after.start))).toBe(true);
  for (const s of offered)
    expect(s.cancellation_fee, s.start).toEqual(expect.objectContaining({ applies: expect.stringMatching(/^(free|due)$/), message: expect.any(String) }));

  await page
    .getByTestId('race-lost')
    .getByRole('button', { name: shownAt(after.start) })
    .click();
  await page.getByRole('button', { name: '確認へ進む' }).click();
  await expect(confirm.getByTestId('fee')).toHaveText(after.cancellation_fee.message);
  release();
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  await expect(page).toHaveURL(/\/booking\/complete\/\d+$/);
});

test('without JavaScript: a lost race offers the next starts as buttons, and the one tapped is confirmed with its fee', async ({ browser, request }) => {
  const context = await phone(browser, false);
  const page = await context.newPage();
  const { first, after } = await startAndNext(request, [4, 6, 8]);
  await guestToConfirm(page, first, '無効 次郎', 'ムコウ ジロウ', '090-5555-9876');
  const confirm = page.getByTestId('booking-confirm');
  await expect(confirm.getByTestId('fee')).toHaveText(first.cancellation_fee.message);

  await fill(first.start);
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  await page
    .getByTestId('race-lost')
    .getByRole('button', { name: shownAt(after.start) })
    .click();
  await expect(confirm.getByTestId('fee')).toHaveText(after.cancellation_fee.message);
  await expect(confirm.getByRole('button', { name: 'この内容で予約する' })).toBeVisible();
  await context.close();
});

test('changing a booking: the confirmation states the fee in words for a change, with JavaScript and without', async ({ browser }) => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await phone(browser, javaScriptEnabled);
    const page = await context.newPage();
    const signupEmail = `change-${javaScriptEnabled}-${Date.now()}@example.jp`;
    const signup = await page.request.post(`${base}/api/users`, {
      data: { name: '変更 花子', email: signupEmail, password: 'correct-horse-battery', agree: true },
    });
    expect(signup.status()).toBe(201);
    // Sign-up signs no one in (the mailed link does); the password just chosen does.
    expect((await page.request.post(`${base}/api/login`, { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
    // Booked for tomorrow, free to cancel; moved to a start today inside the two hours.
    const later = (await slots(page.request, store.id, businessDay(2))).find((s) => s.cancellation_fee.applies === 'free')!;
    const made = await page.request.post(`${base}/api/bookings`, { data: { store_id: store.id, start: later.start, party_size: 2 } });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: number };
    // Any start with a table left: the tests before have taken many of today's.
    const day = (await (await page.request.get(`${base}/api/stores/${store.id}/availability?date=${today}&party=2`)).json()) as { slots: Slot[] };
    const inside = day.slots.find((s) => s.free_tables > 0 && s.cancellation_fee.applies === 'due')!;
    expect(
      inside,
      `a free start today inside the window: ${JSON.stringify(day.slots.map((s) => [s.start, s.free_tables, s.cancellation_fee.applies]))}`,
    ).toBeTruthy();

    await page.goto(`${base}/store/${store.id}/booking/edit/${id}`);
    if (javaScriptEnabled) {
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      // The island's own answer for the day, asked for a change.
      const day = page.waitForResponse(
        (r) =>
          r.url().includes('/availability?') && new URL(r.url()).searchParams.get('offer') === 'change' && new URL(r.url()).searchParams.get('date') === today,
      );
      await page.getByLabel('日付').selectOption(today);
      await day;
    } else {
      await page.getByLabel('日付').selectOption(today);
      await page.getByRole('button', { name: 'この日付と人数の空き時間を表示' }).click();
    }
    await chooseStart(page, inside.start);
    await page.getByRole('button', { name: '確認へ進む' }).click();
    const fee = page.getByTestId('booking-confirm').getByTestId('fee');
    await expect(fee).toHaveText('このお時間はすでにキャンセル料の対象です。変更後にキャンセルすると、お一人様¥2,000（合計¥4,000）がかかります。');
    await expect(fee).toHaveAttribute('data-applies', 'due');
    await context.close();
  }
});

test('a booking inside the window is not moved away online: the change’s confirm step says so and offers the store’s phone, with JavaScript and without', async ({
  browser,
}) => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await phone(browser, javaScriptEnabled);
    const page = await context.newPage();
    const signupEmail = `move-${javaScriptEnabled}-${Date.now()}@example.jp`;
    const signup = await page.request.post(`${base}/api/users`, {
      data: { name: '移動 花子', email: signupEmail, password: 'correct-horse-battery', agree: true },
    });
    expect(signup.status()).toBe(201);
    // Sign-up signs no one in (the mailed link does); the password just chosen does.
    expect((await page.request.post(`${base}/api/login`, { data: { email: signupEmail, password: 'correct-horse-battery' } })).status()).toBe(200);
    // Booked today inside the two hours, at any start with a table left (the tests before have taken many): the fee is due from the moment it is made.
    const day = (await (await page.request.get(`${base}/api/stores/${store.id}/availability?date=${today}&party=2`)).json()) as { slots: Slot[] };
    const inside = day.slots.find((s) => s.free_tables > 0 && s.cancellation_fee.applies === 'due')!;
    expect(
      inside,
      `a free start today inside the window: ${JSON.stringify(day.slots.map((s) => [s.start, s.free_tables, s.cancellation_fee.applies]))}`,
    ).toBeTruthy();
    const made = await page.request.post(`${base}/api/bookings`, { data: { store_id: store.id, start: inside.start, party_size: 2 } });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const tomorrow = (await slots(page.request, store.id, businessDay(2)))[0]!;

    await page.goto(`${base}/store/${store.id}/booking/edit/${id}`);
    if (javaScriptEnabled) {
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      const day = page.waitForResponse((r) => r.url().includes('/availability?') && new URL(r.url()).searchParams.get('date') === businessDay(2));
      await page.getByLabel('日付').selectOption(businessDay(2));
      await day;
    } else {
      await page.getByLabel('日付').selectOption(businessDay(2));
      await page.getByRole('button', { name: 'この日付と人数の空き時間を表示' }).click();
    }
    await chooseStart(page, tomorrow.start);
    await page.getByRole('button', { name: '確認へ進む' }).click();
    const confirm = page.getByTestId('booking-confirm');
    const refusal = confirm.getByTestId('change-needs-store');
    await expect(refusal).toContainText('時間の変更や人数を減らす変更はオンラインでは承れません');
    await expect(refusal.getByRole('link', { name: 'お店に電話' })).toHaveAttribute('href', /^tel:\d+$/);
    await expect(confirm.getByRole('button', { name: 'この内容で変更する' })).toHaveCount(0);
    // The booking stays where it was, and cancelling it still costs the fee.
    const read = (await (await page.request.get(`${base}/api/bookings/${id}`, { headers: { 'accept-language': 'ja' } })).json()) as {
      start: string;
      cancellation_fee: Fee;
    };
    expect(Date.parse(read.start)).toBe(Date.parse(inside.start));
    expect(read.cancellation_fee.applies).toBe('due');
    await context.close();
  }
});
