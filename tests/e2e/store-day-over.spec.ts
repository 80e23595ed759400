import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { businessDay } from '../helpers/free-start';

/**
 * A store page after the day's last start (phone, Japanese): 「本日の営業は終了しました」 once, and
 * the next open day one tap away, instead of two near-identical "no time" lines and a watch that
 * could never be kept. The server is the test's own, its clock at 23:53 tomorrow (SUGU_CLOCK), its
 * demo data seeded at that instant.
 */

const day = businessDay(1);
const clockAt = new Date(`${day}T23:53:00+09:00`);
const weekday = new Date(`${day}T12:00:00+09:00`).getUTCDay();

let server: SpawnedServer;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-dayover-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_CLOCK: clockAt.toISOString() });
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Store = { id: number; hours: { weekday: number; opens_min: number; closes_min: number }[]; closures: { date: string }[] };

test('after closing: 本日の営業は終了しました and the next open day, one line, no watch offered', async ({ page, request }) => {
  test.setTimeout(120_000);
  const base = server.base;
  // A store open that day that closes by 23:30 (its last start long gone at 23:53).
  let found: Store | undefined;
  for (let id = 1; id <= 120 && !found; id++) {
    const res = await request.get(`${base}/api/stores/${id}`);
    if (!res.ok()) continue;
    const s = (await res.json()) as Store;
    const that = s.hours.filter((h) => h.weekday === weekday);
    if (that.length && that.every((h) => h.closes_min <= 23 * 60 + 30) && !s.closures.some((c) => c.date === day)) found = s;
  }
  expect(found, 'a demo store closing by 23:30 that day').toBeDefined();
  const slots = (await (await request.get(`${base}/api/stores/${found!.id}/availability?date=${day}&party=2`)).json()) as { slots: unknown[] };
  expect(slots.slots).toEqual([]);

  await page.goto(`${base}/store/${found!.id}`);
  await expect(page.getByText('本日の営業は終了しました')).toHaveCount(1);
  await expect(page.getByText('本日の営業は終了しました')).toBeVisible();
  // Neither "no time" line, nor a watch of a day that is over.
  await expect(page.getByText('この日は2名で入れる時間がありません')).toHaveCount(0);
  await expect(page.getByText('今から1時間以内に2名で入れる席はありません')).toHaveCount(0);
  await expect(page.locator('[data-watch-ask]')).toHaveCount(0);
  const next = page.locator('[data-next-open]');
  await expect(next).toContainText('次の営業日');
  const nextDay = (await next.getAttribute('data-next-open'))!;
  expect(nextDay > day).toBe(true);
  await next.click();
  await expect(page).toHaveURL(new RegExp(`date=${nextDay}`));
  await expect(page.locator('[data-day-slots] [data-slot]').first()).toBeVisible();
  await expect(page.getByText('本日の営業は終了しました')).toHaveCount(0);
});
