import { expect, test, type APIRequestContext } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { businessDay } from '../helpers/free-start';
import { bookAsAnotherDiner } from '../helpers/other-diner';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

/**
 * 空席通知 in the browser (phone size, Japanese): a search whose only store is full for the party
 * right now → 「空席が出たら知らせる」 → another diner cancels → the start is held for this diner
 * and the open page shows a toast with the deadline and a link → the hold's page → booked in one
 * tap. The server is the test's own,
 * its clock at 20:07 tomorrow (SUGU_CLOCK) and its demo data seeded at that instant, so the store
 * found and the bookings that fill its next hour are the same whatever the hour the suite runs at.
 */

interface Slot {
  start: string;
  free_tables: number;
}

const day = businessDay(1);
const clockAt = new Date(`${day}T20:07:00+09:00`);
/**
 * The hour ahead of the server's clock, with half an hour to spare: the clock runs on from 20:07
 * while the test works, and the listing and the watch look an hour ahead of wherever it is then.
 */
const AHEAD = 90 * 60_000;

let server: SpawnedServer;
let smtp: TestSmtp;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-watch-'));
  // A real SMTP server: the diner verifies their address from the mailed link (a start is held only for a confirmed address).
  smtp = await startSmtp();
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString(), SMTP_URL: smtp.url, ...NO_BOOKING_LIMITS });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts free for the party from the server's now (it never answers a past one) to AHEAD past 20:07. */
async function freeWithinTheHour(request: APIRequestContext, storeId: number, party: number): Promise<Slot[]> {
  const res = await request.get(`${server.base}/api/stores/${storeId}/availability?party=${party}&date=${day}`);
  expect(res.status()).toBe(200);
  const { slots } = (await res.json()) as { slots: Slot[] };
  return slots.filter((s) => s.free_tables > 0 && Date.parse(s.start) < clockAt.getTime() + AHEAD);
}

test('full listing → watch → another diner cancels → toast with a link → booked', async ({ page, request }) => {
  test.setTimeout(120_000);
  const base = server.base;
  // An all-day store and its largest party (the fewest tables seat it), made full for the next hour.
  // One with a start free for that party at 20:07: the demo's own bookings fill some.
  let store: { id: number; name: string; area: { id: number }; max_party: number } | undefined;
  for (let id = 1; id <= 80 && !store; id++) {
    const res = await request.get(`${base}/api/stores/${id}`);
    if (!res.ok()) continue;
    const s = (await res.json()) as { id: number; name: string; area: { id: number }; max_party: number; hours: { opens_min: number; closes_min: number }[] };
    if (
      s.hours?.length === 7 &&
      s.hours.every((h) => h.opens_min === 0 && h.closes_min === 1440) &&
      (await freeWithinTheHour(request, s.id, s.max_party)).length
    )
      store = s;
  }
  expect(store, 'an all-day store in the demo data with a start free after 20:07').toBeDefined();
  const party = store!.max_party;
  const held: { id: number; token: string }[] = [];
  for (let n = 0; n < 16; n++) {
    const [slot] = await freeWithinTheHour(request, store!.id, party);
    if (!slot) break;
    const res = await bookAsAnotherDiner(base, {
      store_id: store!.id,
      start: slot.start,
      party_size: party,
      name: '先客 太郎',
      name_kana: 'センキャク タロウ',
      phone: `090-1111-${String(1000 + n)}`,
      email: `first-${n}-${Date.now()}@example.jp`,
    });
    expect(res.status).toBe(201);
    const b = (await res.json()) as { id: number; edit_token: string };
    held.push({ id: b.id, token: b.edit_token });
  }
  expect(await freeWithinTheHour(request, store!.id, party)).toEqual([]);
  expect(held.length).toBeGreaterThan(0);

  // The diner signs in and searches this store's area and name for the party: nothing is free now.
  const signupEmail = `watch-${Date.now()}@example.jp`;
  const signup = await page.request.post(`${base}/api/users`, {
    data: { name: '通知 待子', email: signupEmail, password: 'correct-horse-battery', agree: true },
  });
  expect(signup.status()).toBe(201);
  // Sign-up signs no one in: the mailed link verifies the address and signs in.
  const [welcome] = await smtp.waitFor(1, 60_000, signupEmail);
  const token = /\/auth\/verify\?token=([\w-]+)/.exec(welcome!.parsed.text ?? '')![1]!;
  expect((await page.request.post(`${base}/api/email-verification`, { data: { token } })).status()).toBe(204);
  await page.goto(`${base}/areas/${store!.area.id}?name=${encodeURIComponent(store!.name)}&party=${party}`);
  await expect(page.locator('[data-empty]')).toBeVisible();
  const ask = page.locator('form[data-watch-ask="on"]');
  await ask.getByRole('button', { name: '空席が出たら知らせる' }).click();
  await expect(ask.getByRole('status')).toHaveText('空席通知を登録しました');
  // The page listens for alerts once its stream is connected (an alert sent before that reaches the
  // diner by mail only).
  await expect(page.locator('[data-watch-listening="true"]')).toHaveCount(1);

  // Another diner cancels: the page hears it at once.
  const cancelled = await request.delete(`${base}/api/guest-bookings/${held[0]!.id}`, {
    headers: { 'x-booking-token': held[0]!.token, origin: new URL(page.url()).origin },
  });
  expect(cancelled.status()).toBe(200);
  const toast = page.getByRole('status').filter({ hasText: `${store!.name}の` });
  await expect(toast).toContainText('まで確保しました');
  await toast.getByRole('link', { name: '確保中の席を見る' }).click();

  // The hold's page: the deadline, ticking, and one tap books it.
  await expect(page).toHaveURL(/\/watches\/hold\/\d+$/);
  await expect(page.getByTestId('hold-deadline')).toContainText('まで確保');
  await expect(page.getByTestId('countdown')).toHaveText(/^残り[0-5]:\d\d$/);
  await page.getByRole('button', { name: 'この席を予約する' }).click();
  await expect(page).toHaveURL(new RegExp(`/store/${store!.id}/booking/edit/\\d+$`));
  await expect(page.getByText('予約しました。')).toBeVisible();
});
