import { expect, test, type APIRequestContext } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { businessDayOn } from '../helpers/free-start';

/**
 * Just before midnight (phone, Japanese; the server's clock at 23:50 on the next Saturday, SUGU_CLOCK: the
 * demo bookings seeded then are the same whatever day the suite runs): a time
 * past midnight reads 翌0:00 on the card and on the store page alike, and a 24-hour store's day
 * fits one screen: the next 60 minutes open, the later hours folded (翌1:00〜 …), working without
 * JavaScript and keeping the start one tap from the form.
 */

const day = businessDayOn(6);
const clockAt = new Date(`${day}T23:50:00+09:00`);

let server: SpawnedServer;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-midnight-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString() });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Store = { id: number; name: string; hours: { opens_min: number; closes_min: number }[]; closures: { date: string }[] };

async function allDayStore(request: APIRequestContext): Promise<Store> {
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`${server.base}/api/stores/${id}`);
    if (!res.ok()) continue;
    const s = (await res.json()) as Store;
    if (s.hours.length === 7 && s.hours.every((h) => h.opens_min === 0 && h.closes_min === 1440) && !s.closures.length) return s;
  }
  throw new Error('no 24-hour store in the seed');
}

test.describe('past midnight', () => {
  test.use({ javaScriptEnabled: false });

  test('the store page: 翌0:00 in the open next hour, the night folded by hour, one tap to the form', async ({ page, request }) => {
    test.setTimeout(120_000);
    const store = await allDayStore(request);
    await page.goto(`${server.base}/store/${store.id}?party=2`);
    const grid = page.locator('[data-day-slots]');
    await expect(grid.getByText('これから1時間', { exact: true })).toBeVisible();
    const visible = grid.locator('a[data-slot]:visible');
    // The starts left before 05:00 are 翌0:00 … 翌4:45; only the next hour's are laid out at once.
    const shown = await visible.allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThanOrEqual(4);
    for (const text of shown) expect(text).toMatch(/^翌0:[0-5]\d/);
    const groups = grid.locator('details[data-slot-group]');
    await expect(groups.first().locator('summary')).toHaveText(/^翌1:00〜（\d+）$/);
    await expect(groups.last().locator('summary')).toHaveText(/^翌4:00〜（\d+）$/);
    await expect(grid.locator('details[open]')).toHaveCount(0);
    // Fits a phone's screen: the last hour's summary is above the fold.
    const box = (await groups.last().boundingBox())!;
    expect(box.y + box.height).toBeLessThan(page.viewportSize()!.height * 2);
    // A folded hour opens without JavaScript; its starts are links to the form like the rest.
    await groups.nth(1).locator('summary').click();
    await expect(groups.nth(1).locator('a[data-slot]').first()).toBeVisible();
    await expect(groups.nth(1).locator('a[data-slot]').first()).toContainText('翌2:');
    // One tap: a start of the next hour opens the form with it chosen.
    const start = (await visible.first().getAttribute('data-slot'))!;
    await visible.first().click();
    await expect(page).toHaveURL(new RegExp(`start=${encodeURIComponent(start)}`));
  });

  test('the cards: the next hour past midnight reads 翌0:00 as on the store page', async ({ page, request }) => {
    test.setTimeout(120_000);
    const store = await allDayStore(request);
    await page.goto(`${server.base}/stores?party=2`);
    const card = page.locator(`article[data-store-id="${store.id}"]`);
    await expect(card).toBeVisible();
    const times = await card.locator('[data-live-slots] time').allInnerTexts();
    expect(times.length).toBeGreaterThan(0);
    for (const text of times) expect(text).toMatch(/^翌0:\d\d$/);
  });
});
