/**
 * Running late, two browsers at once: a guest diner on the phone opens their booking from its
 * secure link and taps 「10分遅れます」; the door's ledger, open on the tablet on the store host in
 * another browser context, shows 「10分遅れ (19:1x 連絡)」 on the booking's row without a reload.
 *
 * The server is the test's own, its clock at 19:10 tomorrow (SUGU_CLOCK) and its demo data seeded at
 * that instant; the guest books the demo store's first free start in the next two hours through the
 * API, so the booking is upcoming whatever the hour the suite runs at.
 */
import { devices, expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { businessDayOn } from '../helpers/free-start';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { signInAsStaff } from '../helpers/store-sign-in';

// A Saturday, always: the demo bookings seeded at the server's clock then leave the demo store the
// same free starts that evening, whatever day the suite runs (on some days it is full from 19:15 to 21:00).
const day = businessDayOn(6);
const clockAt = new Date(`${day}T19:10:00+09:00`);

let server: SpawnedServer;
let dataDir = '';
let storeHost = '';
let booking: { id: number; store_id: number; edit_token: string };

test.use({ viewport: { width: 1024, height: 768 } });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(200_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-running-late-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString(), ...NO_BOOKING_LIMITS });
  storeHost = server.base.replace('127.0.0.1', 'store.localhost');
  const request = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { 'accept-language': 'ja', origin: server.base } });
  try {
    const login = await request.post('/api/login', { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
    expect(login.status()).toBe(200);
    const { store_id: storeId } = (await login.json()) as { store_id: number };
    const { slots } = (await (await request.get(`/api/stores/${storeId}/availability?date=${day}&party=2`)).json()) as {
      slots: { start: string; free_tables: number }[];
    };
    const slot = slots.find(
      (s) => Date.parse(s.start) >= clockAt.getTime() + 15 * 60_000 && Date.parse(s.start) <= clockAt.getTime() + 2 * 3600_000 && s.free_tables > 0,
    );
    expect(slot, 'a free start for two in the next two hours').toBeDefined();
    const made = await request.post('/api/guest-bookings', {
      data: {
        name: '遅刻 花子',
        name_kana: 'チコク ハナコ',
        phone: '090-5555-0101',
        email: 'running-late@example.jp',
        store_id: storeId,
        start: slot!.start,
        party_size: 2,
      },
    });
    expect(made.status()).toBe(201);
    booking = (await made.json()) as typeof booking;
  } finally {
    await request.dispose();
  }
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the diner taps 10分遅れます on the phone; the ledger on the tablet shows it on the row, live', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // The door: the ledger, connected to the store stream.
  await signInAsStaff(page, storeHost);
  const row = page.locator(`[data-booking="${booking.id}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator('[data-live-status]')).toHaveText('リアルタイム更新中');
  await expect(row.getByTestId('late-notice')).toHaveCount(0);
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

  // The diner: a phone in another browser context, the booking opened from its link.
  const diner = await browser.newContext({ ...devices['Pixel 7'], locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  try {
    const phone = await diner.newPage();
    await phone.goto(`${server.base}/store/${booking.store_id}/booking-without/edit/${booking.id}?token=${encodeURIComponent(booking.edit_token)}`);
    const late = phone.getByTestId('running-late');
    await late.getByRole('button', { name: '10分遅れます' }).click();
    await expect(phone.getByTestId('edit-done')).toHaveText('お店に伝えました');
    await expect(phone.getByTestId('late-sent')).toContainText('お店に「10分遅れます」と伝えました');

    // The ledger's row says so, without a reload.
    await expect(row.getByTestId('late-notice')).toHaveText(/^10分遅れ \(19:1\d 連絡\)$/);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  } finally {
    await diner.close();
  }
});
