import { devices, expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from '../helpers/server';
import { NO_BOOKING_LIMITS } from '../helpers/limits';
import { businessDayOn } from '../helpers/free-start';
import { bookAsAnotherDiner } from '../helpers/other-diner';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { WATCH_HOLD_MINUTES } from '../../src/lib/contract/watches';

/**
 * A claimable 空席通知 rolls on in the browser: two diners (two phones, signed in) watch the same
 * full store, the first asking first; another diner cancels; the freed start is held for the first
 * diner only (their page shows the toast and the hold's page the claim button; the second diner
 * cannot see that hold). The first diner lets the deadline pass: the server stops and starts again
 * on the same data with its clock (SUGU_CLOCK) a minute past the deadline, as an instance that died
 * would come back, so no test waits real minutes. The hold expires by itself, the start is offered
 * to the second diner (mailed through a real SMTP server), who books it from the hold's page; the
 * first diner's hold page says it has expired.
 */

interface Slot {
  start: string;
  free_tables: number;
}

// A Saturday evening: the demo data the server seeds on it are the same whatever day and hour the suite runs.
const day = businessDayOn(6);
const clockAt = new Date(`${day}T20:07:00+09:00`);
/** The hour ahead of the server's clock, with half an hour to spare (the clock runs on while the test works). */
const AHEAD = 90 * 60_000;
const phone = { ...devices['Pixel 7'], locale: 'ja-JP', timezoneId: 'Asia/Tokyo' };

let server: SpawnedServer;
let smtp: TestSmtp;
let dataDir = '';
const env = () => ({ DATA_DIR: dataDir, SMTP_URL: smtp.url, ...NO_BOOKING_LIMITS });

// A server and data of its own for each run of the test (it stops and restarts them, and fills a store).
test.beforeEach(async () => {
  // The two server starts (the first seeds its data) and the journey, on a busy machine.
  test.setTimeout(300_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-hold-expiry-'));
  smtp = await startSmtp();
  server = await spawnServer({ ...env(), SUGU_CLOCK: clockAt.toISOString() });
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixtures from an object pattern, and this hook needs none.
test.afterEach(async ({}, testInfo) => {
  if (server && testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
    await testInfo.attach('mails', { body: smtp.received.map((m) => `${m.to}\t${m.subject}`).join('\n'), contentType: 'text/plain' });
  }
  await server?.stop();
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The start to free: inside both watches' hour (asked from about 20:08), and still ahead of the
 * clock after the restart (the deadline is WATCH_HOLD_MINUTES on, the restarted clock a minute past it).
 */
const inTarget = (s: { start: string }) => Date.parse(s.start) >= clockAt.getTime() + 25 * 60_000 && Date.parse(s.start) <= clockAt.getTime() + 55 * 60_000;

async function freeWithinTheHour(request: APIRequestContext, storeId: number, party: number): Promise<Slot[]> {
  const res = await request.get(`${server.base}/api/stores/${storeId}/availability?party=${party}&date=${day}`);
  expect(res.status()).toBe(200);
  const { slots } = (await res.json()) as { slots: Slot[] };
  return slots.filter((s) => s.free_tables > 0 && Date.parse(s.start) < clockAt.getTime() + AHEAD);
}

/** A diner on a phone of their own: signed up, the address verified from the mailed link (a start is held only for a confirmed address), signed in. */
async function diner(browser: Browser, n: number): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext(phone);
  const page = await context.newPage();
  const email = `hold-${n}-${Date.now()}@example.jp`;
  const signup = await page.request.post(`${server.base}/api/users`, { data: { name: `待ち 順${n}`, email, password: 'correct-horse-battery', agree: true } });
  expect(signup.status()).toBe(201);
  const [welcome] = await smtp.waitFor(1, 60_000, email);
  const token = /\/auth\/verify\?token=([\w-]+)/.exec(welcome!.parsed.text ?? '')![1]!;
  expect((await page.request.post(`${server.base}/api/email-verification`, { data: { token } })).status()).toBe(204);
  return { page, email };
}

/** The diner asks for a 空席通知 from the empty search of the store, and their page listens for alerts. */
async function watch(page: Page, store: { name: string; area: { id: number } }, party: number): Promise<void> {
  await page.goto(`${server.base}/areas/${store.area.id}?name=${encodeURIComponent(store.name)}&party=${party}`);
  await expect(page.locator('[data-empty]')).toBeVisible();
  const ask = page.locator('form[data-watch-ask="on"]');
  await ask.getByRole('button', { name: '空席が出たら知らせる' }).click();
  await expect(ask.getByRole('status')).toHaveText('空席通知を登録しました');
  await expect(page.locator('[data-watch-listening="true"]')).toHaveCount(1);
}

/** The hold mails sent to `to` so far (each names its hold's page with its own token). */
function holdLinks(to: string): { id: number; path: string }[] {
  return smtp.received
    .filter((m) => m.to === to && m.subject.includes('確保しました'))
    .map((m) => /\/watches\/hold\/(\d+)\?token=[\w-]+/.exec(m.parsed.text ?? ''))
    .filter((m) => m !== null)
    .map((m) => ({ id: Number(m[1]), path: m[0] }));
}

test('a freed start is offered to the first watcher only; once their hold expires, the second books it', async ({ browser, request }) => {
  // An all-day store and its largest party (the fewest tables seat it), made full for the next hour and a half.
  let store: { id: number; name: string; area: { id: number }; max_party: number } | undefined;
  for (let id = 1; id <= 80 && !store; id++) {
    const res = await request.get(`${server.base}/api/stores/${id}`);
    if (!res.ok()) continue;
    const s = (await res.json()) as { id: number; name: string; area: { id: number }; max_party: number; hours: { opens_min: number; closes_min: number }[] };
    if (
      s.hours?.length === 7 &&
      s.hours.every((h) => h.opens_min === 0 && h.closes_min === 1440) &&
      (await freeWithinTheHour(request, s.id, s.max_party)).some(inTarget)
    )
      store = s;
  }
  expect(store, 'an all-day store in the demo data with a start free between 20:32 and 21:02').toBeDefined();
  const party = store!.max_party;
  const held: { id: number; token: string; start: number }[] = [];
  for (let n = 0; n < 16; n++) {
    // The target's tables first: a table booked earlier would stay taken through it.
    const free = await freeWithinTheHour(request, store!.id, party);
    const slot = free.find(inTarget) ?? free[0];
    if (!slot) break;
    const res = await bookAsAnotherDiner(server.base, {
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
    held.push({ id: b.id, token: b.edit_token, start: Date.parse(slot.start) });
  }
  expect(await freeWithinTheHour(request, store!.id, party)).toEqual([]);
  const target = held.find((h) => inTarget({ start: new Date(h.start).toISOString() }));
  expect(target, 'a start booked between 20:32 and 21:02').toBeDefined();

  // Two diners watch the store for the party: the first asks first.
  const first = await diner(browser, 1);
  const second = await diner(browser, 2);
  await watch(first.page, store!, party);
  await watch(second.page, store!, party);

  // Another diner cancels: held for the first diner, whose page hears it at once.
  const cancelled = await request.delete(`${server.base}/api/guest-bookings/${target!.id}`, {
    headers: { 'x-booking-token': target!.token, origin: new URL(server.base).origin },
  });
  expect(cancelled.status()).toBe(200);
  const toast = first.page.getByRole('status').filter({ hasText: `${store!.name}の` });
  // Pushed from the server's matcher to the page's stream: on a busy machine it may take longer than the default wait.
  await expect(toast).toContainText('まで確保しました', { timeout: 30_000 });
  await toast.getByRole('link', { name: '確保中の席を見る' }).click();
  await expect(first.page).toHaveURL(/\/watches\/hold\/\d+$/);
  const firstHold = Number(/\/watches\/hold\/(\d+)$/.exec(first.page.url())![1]);
  await expect(first.page.getByTestId('hold')).toHaveAttribute('data-state', 'offered');
  await expect(first.page.getByTestId('hold-deadline')).toContainText('まで確保');
  await expect(first.page.getByTestId('hold-claim')).toBeVisible();
  const heldUntil = (await first.page.getByTestId('hold-deadline').locator('time').getAttribute('datetime'))!;
  expect(Date.parse(heldUntil)).toBeGreaterThan(clockAt.getTime());

  // Not the second diner's: their page shows the store no free table, and the first diner's hold is not found for them.
  expect((await second.page.request.get(`${server.base}/api/watch-holds/${firstHold}`)).status()).toBe(404);
  await second.page.goto(`${server.base}/areas/${store!.area.id}?name=${encodeURIComponent(store!.name)}&party=${party}`);
  await expect(second.page.locator('[data-empty]')).toBeVisible();
  expect(await freeWithinTheHour(request, store!.id, party)).toEqual([]);

  // Their hold's mail too, before the server stops (what they were offered, whatever else comes).
  await expect.poll(() => holdLinks(first.email).map((h) => h.id), { timeout: 60_000, message: 'the hold mail to the first diner' }).toEqual([firstHold]);
  expect(Date.parse(heldUntil) - clockAt.getTime()).toBeGreaterThanOrEqual(WATCH_HOLD_MINUTES * 60_000);

  // The first diner does not claim. The server stops and comes back on the same data a minute past the deadline.
  await server.stop();
  const restartAt = new Date(Date.parse(heldUntil) + 60_000);
  server = await spawnServer({ ...env(), SUGU_CLOCK: restartAt.toISOString() });

  // The hold expires by itself, and the start is offered to the second diner: mailed, with the hold's own link.
  await expect.poll(() => holdLinks(second.email).length, { timeout: 60_000, message: 'the hold mail to the second diner' }).toBe(1);
  const [secondHold] = holdLinks(second.email);
  expect(secondHold!.id).not.toBe(firstHold);
  await second.page.goto(`${server.base}${secondHold!.path}`);
  await expect(second.page.getByTestId('hold')).toHaveAttribute('data-state', 'offered');
  await expect(second.page.getByText(`${store!.name}の席を、あなただけのために確保しています。`)).toBeVisible();
  const secondUntil = (await second.page.getByTestId('hold-deadline').locator('time').getAttribute('datetime'))!;
  // Offered after the restart, not alongside the first diner's.
  expect(Date.parse(secondUntil)).toBeGreaterThan(Date.parse(heldUntil));
  await second.page.getByTestId('hold-claim').click();
  await expect(second.page).toHaveURL(new RegExp(`/store/${store!.id}/booking/edit/\\d+$`));
  await expect(second.page.getByText('予約しました。')).toBeVisible();

  // The first diner's hold page, opened again: expired, with nothing to claim.
  await first.page.goto(`${server.base}/watches/hold/${firstHold}`);
  await expect(first.page.getByTestId('hold')).toHaveAttribute('data-state', 'expired');
  await expect(first.page.getByTestId('hold-over')).toHaveText('確保の期限が過ぎました。次にお待ちの方にご案内しています。');
  await expect(first.page.getByTestId('hold-claim')).toHaveCount(0);
  // And the first diner was offered the start once only.
  expect(holdLinks(first.email).map((h) => h.id)).toEqual([firstHold]);
  await first.page.context().close();
  await second.page.context().close();
});
