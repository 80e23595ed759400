/**
 * The door and the diner, two browsers at once: staff sign in on the store host at tablet size
 * (1024x768, Japanese), open the ledger and seat a walk-in party of eight in two taps; a diner with
 * /home and the store's page open for eight in another browser context sees the store stop offering
 * a start within the hour, live, without a reload.
 *
 * The demo store seats eight at one table only, so the walk-in takes the last table for eight. The
 * server is the test's own, its clock at 19:10 tomorrow (SUGU_CLOCK) and its demo data seeded at that
 * instant; the bookings the seed put on that table around then are cancelled first through the store
 * API, so the table is free now whatever the hour the suite runs at.
 */
import { devices, expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { businessDay } from '../helpers/free-start';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { signInAsStaff } from '../helpers/store-sign-in';

type Table = { id: number; label: string; min_party: number; max_party: number; online: boolean };
type Booking = { id: number; start: string; end: string; status: string; table: { id: number } };

const PARTY = 8;
const day = businessDay(1);
const clockAt = new Date(`${day}T19:10:00+09:00`);

let server: SpawnedServer;
let dataDir = '';
let storeHost = '';
let storeId = 0;
let storeName = '';
let table: Table;

test.use({ viewport: { width: 1024, height: 768 } });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(200_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-walkin-live-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString(), ...NO_BOOKING_LIMITS });
  storeHost = server.base.replace('127.0.0.1', 'store.localhost');
  const request = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: { 'accept-language': 'ja', origin: server.base } });
  try {
    const login = await request.post('/api/login', { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
    expect(login.status()).toBe(200);
    const { token, store_id } = (await login.json()) as { token: string; store_id: number };
    storeId = store_id;
    const auth = { authorization: `Bearer ${token}` };
    storeName = ((await (await request.get(`/api/stores/${storeId}`)).json()) as { name: string }).name;

    // Exactly one table seats eight, and it is one diners can book: the walk-in must take it.
    const { items: tables } = (await (await request.get('/api/store/tables', { headers: auth })).json()) as { items: Table[] };
    const fits = tables.filter((x) => x.min_party <= PARTY && PARTY <= x.max_party);
    expect(
      fits.map((x) => x.online),
      'one online table for eight',
    ).toEqual([true]);
    table = fits[0]!;

    // Free it from now for the next hour's starts and their stay (a party of eight keeps it 150 minutes).
    const { items } = (await (await request.get(`/api/store/bookings?date=${day}`, { headers: auth })).json()) as { items: Booking[] };
    const until = clockAt.getTime() + 5 * 3600_000;
    for (const b of items.filter(
      (b) => b.table.id === table.id && b.status === 'confirmed' && Date.parse(b.end) > clockAt.getTime() && Date.parse(b.start) < until,
    )) {
      const res = await request.patch(`/api/store/bookings/${b.id}`, { headers: auth, data: { mark: 'cancelled', reason: '個室の設備点検のため' } });
      expect(res.status(), `cancel booking ${b.id}`).toBe(200);
    }
  } finally {
    await request.dispose();
  }
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a walk-in of eight seated in two taps: the diner’s /home and store page stop offering the store for eight, live', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // The diner: a phone, in another browser context (no cookie of the staff's), /home and the store page for eight.
  const diner = await browser.newContext({ ...devices['Pixel 7'], locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  try {
    const storePage = await diner.newPage();
    await storePage.goto(`${server.base}/store/${storeId}?party=${PARTY}`);
    const now = storePage.locator(`[data-live-store="${storeId}"]`);
    // The snapshot of the stream has arrived (it marks the element), and it says a start is free now.
    await expect(now).toHaveAttribute('data-live-state', 'bookable');
    await expect(now.locator('[data-live-when-bookable]')).toBeVisible();
    await expect(now.locator('[data-live-slot]').first()).toBeVisible();
    await expect(now.locator('[data-live-when-full]')).toBeHidden();

    const home = await diner.newPage();
    await home.goto(`${server.base}/home?name=${encodeURIComponent(storeName)}&party=${PARTY}`);
    const card = home.locator(`[data-live-store="${storeId}"]`);
    await expect(card).toHaveAttribute('data-live-state', 'bookable');
    await expect(card).toBeVisible();
    await expect(card.locator('[data-live-when-bookable]')).toBeVisible();
    for (const p of [storePage, home]) await p.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

    // The staff, at the door on the tablet.
    await signInAsStaff(page, storeHost);
    const form = page.getByTestId('walk-in-form');
    await expect(form).toBeVisible();

    // From the loaded ledger: tap one, the party size; tap two, 着席 (the table left on automatic).
    let taps = 0;
    await form.getByText(`${PARTY}名`, { exact: true }).click();
    taps++;
    await form.getByRole('button', { name: '着席' }).click();
    taps++;
    expect(taps).toBeLessThanOrEqual(2);
    await expect(page.getByTestId('store-flash')).toHaveText(`「${table.label}」に${PARTY}名をご案内しました`);

    // The diner's pages change in place: no start within the hour for eight.
    await expect(now).toHaveAttribute('data-live-state', 'full');
    await expect(now.locator('[data-live-when-full]')).toBeVisible();
    await expect(now.locator('[data-live-when-full]')).toHaveText(`今から1時間以内に${PARTY}名で入れる席はありません`);
    await expect(now.locator('[data-live-when-bookable]')).toBeHidden();
    // On /home the store leaves the "bookable now" list.
    await expect(card).toHaveAttribute('data-live-state', 'full');
    await expect(card).toBeHidden();
    for (const p of [storePage, home]) expect(await p.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // The public availability agrees: no start for eight within the hour at the store.
    const slots = (await (await storePage.request.get(`${server.base}/api/stores/${storeId}/availability?date=${day}&party=${PARTY}`)).json()) as {
      slots: { start: string; free_tables: number }[];
    };
    const hour = clockAt.getTime() + 3600_000;
    expect(slots.slots.filter((s) => Date.parse(s.start) <= hour && s.free_tables > 0)).toEqual([]);
  } finally {
    await diner.close();
  }
});
