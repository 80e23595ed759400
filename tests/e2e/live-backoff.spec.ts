/**
 * The browser's live-availability client when the server refuses its stream (429: too many from
 * this address). EventSource gives up for good on such an answer; the client must come back later,
 * later each time, and get its stream once a place is free. Runs its own server with one stream
 * per client, a stream held by this test taking that place; the page's timers run on Playwright's
 * clock, so the waits are counted, not slept.
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';

let server: SpawnedServer;
let dataDir = '';
let base = '';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-backoff-'));
  server = await spawnServer({ DATA_DIR: dataDir, SUGU_LOG_REQUESTS: '1', STREAMS_PER_CLIENT: '1' });
  base = server.base;
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a refused stream is tried again later, twice as late each time, until a place is free', async ({ page }) => {
  // This test's own stream takes the one place of 127.0.0.1, the page's address too.
  const list = (await (await fetch(`${base}/api/stores?per_page=3`)).json()) as { items: { id: number }[] };
  expect(list.items.length).toBeGreaterThan(0);
  const held = new AbortController();
  const mine = await fetch(`${base}/api/availability/stream?stores=${list.items[0]!.id}`, { signal: held.signal });
  expect(mine.status).toBe(200);

  // Count what the page's EventSources do (the browser's own class, only watched).
  await page.addInitScript(() => {
    const Native = window.EventSource;
    const seen = { created: 0, refused: 0, opened: 0 };
    (window as unknown as { __streams: typeof seen }).__streams = seen;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        seen.created++;
        this.addEventListener('open', () => seen.opened++);
        this.addEventListener('error', () => {
          if (this.readyState === Native.CLOSED) seen.refused++;
        });
      }
    };
  });
  const streams = () => page.evaluate(() => (window as unknown as { __streams: { created: number; refused: number; opened: number } }).__streams);
  const start = new Date('2026-11-20T21:40:00+09:00');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1000));
  await page.goto(`${base}/home`);

  // Refused (429) at once; nothing again before the shortest first wait (5 s × 0.5)…
  await expect.poll(async () => (await streams()).refused).toBe(1);
  await page.clock.runFor(2_400);
  expect(await streams()).toMatchObject({ created: 1, refused: 1 });
  // …and once by the longest (5 s × 1.5).
  await page.clock.runFor(5_100);
  expect((await streams()).created).toBe(2);
  await expect.poll(async () => (await streams()).refused).toBe(2);
  // The second wait is twice as long: 5 to 15 s.
  await page.clock.runFor(4_900);
  expect((await streams()).created).toBe(2);
  await page.clock.runFor(10_200);
  expect((await streams()).created).toBe(3);
  await expect.poll(async () => (await streams()).refused).toBe(3);

  // The place comes free; the next try (10 to 30 s later) gets the stream and its counts.
  held.abort();
  await expect.poll(() => /"msg":"stream_closed"[^\n]*"open":0/.test(server.output())).toBe(true);
  const opened = page.waitForResponse((r) => r.url().includes('/api/availability/stream') && r.status() === 200);
  await page.clock.runFor(30_100);
  expect((await streams()).created).toBe(4);
  await opened;
  await expect.poll(async () => (await streams()).opened).toBe(1);
  await expect(page.locator('article[data-live-store][data-live-state]').first()).toBeAttached();
});
