import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { businessDayOn } from '../helpers/free-start';
import { chooseStart } from '../helpers/start-picker';
import { addTokyoDays } from '../../src/lib/datetime';

/**
 * A 24-hour store's booking form at 11:50 (the server's clock on the next Saturday, SUGU_CLOCK: the
 * demo bookings seeded then are the same whatever day the suite runs) offers the 68 starts left in
 * the day as the store page does: the next 60 minutes open, each later hour folded (13:00〜 …
 * 翌4:00〜), so the choice fits one screen of a 390 px phone. A folded start is opened and booked,
 * with JavaScript and without, and the chosen start comes back checked in its open hour.
 */

const day = businessDayOn(6);
const clockAt = new Date(`${day}T11:50:00+09:00`);

let server: SpawnedServer;
let dataDir = '';

test.use({ viewport: { width: 390, height: 844 }, locale: 'ja-JP' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-start-groups-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString(), ...NO_BOOKING_LIMITS });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Slot = { start: string; free_tables: number };
type Store = { id: number; hours: { opens_min: number; closes_min: number }[]; closures: { date: string }[] };

/** A store open around the clock with every hour's starts offered today for two, and its free starts. */
async function allDayStore(request: APIRequestContext): Promise<{ id: number; free: Slot[] }> {
  for (let id = 1; id < 400; id++) {
    const res = await request.get(`${server.base}/api/stores/${id}`);
    if (!res.ok()) continue;
    const s = (await res.json()) as Store;
    if (!(s.hours.length === 7 && s.hours.every((h) => h.opens_min === 0 && h.closes_min === 1440) && !s.closures.length)) continue;
    const { slots } = (await (await request.get(`${server.base}/api/stores/${id}/availability?date=${day}&party=2`)).json()) as { slots: Slot[] };
    const free = slots.filter((x) => x.free_tables >= 1);
    // 12:00 to 翌4:45: 68 starts; a store with most of them free, one at 12:xx to open with.
    if (free.length >= 60 && free[0]!.start.slice(11, 13) === '12') return { id, free };
  }
  throw new Error('no 24-hour store with its day free in the seed');
}

/** The free start of `hour` (Tokyo, 0–23) with a table for two, the latest of that hour. */
const freeIn = (free: Slot[], hour: number) => free.filter((s) => Number(s.start.slice(11, 13)) === hour).at(-1)!;

/** A guest of this run's own (phone and e-mail): a run again on the same server is another diner, not a duplicate booking. */
async function fillGuest(page: Page, kana: string) {
  const run = String(Date.now()).slice(-8);
  await page.getByLabel('お名前').fill('時間 選子');
  await page.getByLabel('フリガナ').fill(kana);
  await page.getByLabel('電話番号').fill(`090-${run.slice(0, 4)}-${run.slice(4)}`);
  await page.getByLabel('メールアドレス').fill(`groups-${run}@example.jp`);
}

test('a 24-hour store: one screen of starts, a folded hour opened and booked, the choice kept in its open hour', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { id, free } = await allDayStore(request);
  await page.goto(`${server.base}/store/${id}/booking-without?party=2`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const slots = page.getByTestId('slots');
  await expect(slots.getByText('これから1時間', { exact: true })).toBeVisible();
  // Only the next hour's starts are laid out: 12:00 to 12:45.
  const shown = await slots.locator('label:visible').allInnerTexts();
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.length).toBeLessThanOrEqual(4);
  for (const text of shown) expect(text).toMatch(/^12:[0-5]\d/);
  const hours = slots.locator('details[data-slot-group]');
  await expect(hours.first().locator('summary')).toHaveText(/^13:00〜（\d+）$/);
  await expect(hours.last().locator('summary')).toHaveText(/^翌4:00〜（\d+）$/);
  await expect(hours).toHaveCount(16);
  await expect(slots.locator('details[open]')).toHaveCount(0);
  // The whole choice, its 68 starts and 16 hours, is at most one screen high.
  const picker = (await page.locator('fieldset', { has: slots }).boundingBox())!;
  expect(picker.height).toBeLessThanOrEqual(page.viewportSize()!.height);

  // A start at 20:xx: its hour is tapped open, then the time.
  const evening = freeIn(free, 20);
  await chooseStart(page, evening.start);
  const hour = slots.locator('details', { has: page.locator(`input[value="${evening.start}"]`) });
  await expect(hour.locator('summary')).toHaveText(/^20:00〜（\d+）$/);
  // The radio group is one: arrows move from the chosen start to the next one laid out, and choose it.
  await slots.locator('input:checked').focus();
  await page.keyboard.press('ArrowLeft');
  const before = free.filter((s) => s.start < evening.start).at(-1)!;
  expect(before.start.slice(11, 13)).toBe('20');
  await expect(slots.locator(`input[value="${before.start}"]`)).toBeFocused();
  await expect(slots.locator(`input[value="${before.start}"]`)).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(slots.locator(`input[value="${evening.start}"]`)).toBeChecked();
  // A folded hour opens from the keyboard too.
  const night = hours.filter({ has: page.locator(`input[value="${freeIn(free, 22).start}"]`) });
  await night.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(night.locator('label').first()).toBeVisible();

  // A reload keeps the choice (it is in the address): checked, in its hour drawn open, the rest folded.
  await expect(page).toHaveURL(new RegExp(`start=${encodeURIComponent(evening.start)}`));
  await page.reload();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(slots.locator(`input[value="${evening.start}"]`)).toBeChecked();
  await expect(slots.locator('label', { has: page.locator(`input[value="${evening.start}"]`) })).toBeVisible();
  await expect(slots.locator('details[open]')).toHaveCount(1);

  await fillGuest(page, 'ジカン エラコ');
  await page.getByRole('button', { name: '確認へ進む' }).click();
  const confirm = page.getByTestId('booking-confirm');
  const time = `${Number(evening.start.slice(11, 13))}:${evening.start.slice(14, 16)}〜`;
  await expect(confirm.getByTestId('summary')).toContainText(time);
  const booked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/guest-bookings');
  await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
  expect((await booked).status()).toBe(201);
  await expect(page.getByTestId('booking-done').getByTestId('summary')).toContainText(time);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the hours fold and open natively; a failed submit brings the chosen start back checked in its open hour', async ({ page, request }) => {
    test.setTimeout(120_000);
    const { id, free } = await allDayStore(request);
    // A start carried by a link (the store page's): its hour is drawn open with it chosen.
    const linked = freeIn(free, 18);
    await page.goto(`${server.base}/store/${id}/booking-without?party=2&start=${encodeURIComponent(linked.start)}`);
    const slots = page.getByTestId('slots');
    await expect(slots.locator('input:checked')).toHaveValue(linked.start);
    await expect(slots.locator('label', { has: page.locator(`input[value="${linked.start}"]`) })).toBeVisible();
    await expect(slots.locator('details[open]')).toHaveCount(1);
    await expect(slots.locator('details[open] summary')).toHaveText(/^18:00〜（\d+）$/);
    await expect(slots.locator('details[data-slot-group]')).toHaveCount(16);

    // Another start, past midnight, in an hour opened by tapping it (no script involved).
    const late = freeIn(free, 1);
    await chooseStart(page, late.start);
    await expect(slots.locator('details', { has: page.locator(`input[value="${late.start}"]`) }).locator('summary')).toHaveText(/^翌1:00〜（\d+）$/);

    // A bad reading: the form comes back with the error, the start still chosen in its open hour.
    await fillGuest(page, 'Jikan');
    await page.getByLabel('ご要望（任意）').fill('窓際');
    await page.getByRole('button', { name: '確認へ進む' }).click();
    await expect(page.getByText('フリガナはカタカナまたはひらがなで入力してください')).toBeVisible();
    await expect(slots.locator('input:checked')).toHaveValue(late.start);
    await expect(slots.locator('label', { has: page.locator(`input[value="${late.start}"]`) })).toBeVisible();
    await expect(slots.locator('details[open] summary')).toHaveText(/^翌1:00〜（\d+）$/);
    await expect(page.getByLabel('ご要望（任意）')).toHaveValue('窓際');

    await page.getByLabel('フリガナ').fill('ジカン エラコ');
    await page.getByRole('button', { name: '確認へ進む' }).click();
    const time = `翌${Number(late.start.slice(11, 13))}:${late.start.slice(14, 16)}〜`;
    const confirm = page.getByTestId('booking-confirm');
    await expect(confirm.getByTestId('summary')).toContainText(time);
    await confirm.getByRole('button', { name: 'この内容で予約する' }).click();
    const done = page.getByTestId('booking-done');
    await expect(done.getByRole('heading', { name: '予約が確定しました' })).toBeVisible();
    await expect(done.getByTestId('summary')).toContainText(time);
  });
});

test("a 24-hour store's whole day ahead, 96 starts, folded by two hours into one screen", async ({ page, request }) => {
  const { id } = await allDayStore(request);
  const ahead = addTokyoDays(day, 2);
  const { slots: all } = (await (await request.get(`${server.base}/api/stores/${id}/availability?date=${ahead}&party=2`)).json()) as { slots: Slot[] };
  expect(all.filter((x) => x.free_tables >= 1).length).toBeGreaterThanOrEqual(90);
  await page.goto(`${server.base}/store/${id}/booking-without?party=2&date=${ahead}`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const slots = page.getByTestId('slots');
  await expect(slots.getByText(/^5:\d\dから$/)).toBeVisible();
  const groups = slots.locator('details[data-slot-group]');
  await expect(groups.first().locator('summary')).toHaveText(/^6:00〜（\d+）$/);
  await expect(groups.nth(1).locator('summary')).toHaveText(/^8:00〜（\d+）$/);
  await expect(groups.last().locator('summary')).toHaveText(/^翌4:00〜（\d+）$/);
  await expect(groups).toHaveCount(12);
  const picker = (await page.locator('fieldset', { has: slots }).boundingBox())!;
  expect(picker.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  // A start at 翌1:xx is in the 翌0:00 group: tapped open, then chosen.
  const late = all.filter((x) => x.free_tables >= 1 && x.start.slice(11, 13) === '01').at(-1)!;
  await chooseStart(page, late.start);
  await expect(slots.locator('details[open] summary')).toHaveText(/^翌0:00〜（\d+）$/);
});
