/**
 * A start held for a watcher (a claimable 空席通知), for browser specs that look at the hold's page
 * as its owner. The spec's own server mails through a real SMTP server (the watcher's address must
 * be confirmed for a start to be held, and the hold's mail names it): a diner signs up and verifies
 * their address from the mailed link, a store's 20:00 five days ahead is filled by other diners,
 * the diner watches it, one of the others cancels, and the hold's mail gives its page.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from './server';
import { NO_BOOKING_LIMITS } from './limits';
import { businessDay } from './free-start';
import { bookAsAnotherDiner } from './other-diner';
import { startSmtp, type TestSmtp } from './smtp';

/** For one spec file: its own server (fresh demo data) and SMTP server, started before its tests. */
export function serverWithMail() {
  const s = { base: '', smtp: undefined as unknown as TestSmtp };
  let server: SpawnedServer | undefined;
  let dataDir = '';
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-hold-'));
    s.smtp = await startSmtp();
    server = await spawnServer({ DATA_DIR: dataDir, SMTP_URL: s.smtp.url, SUGU_LOG_REQUESTS: '0', ...NO_BOOKING_LIMITS });
    s.base = server.base;
  });
  test.afterAll(async () => {
    await server?.stop();
    await s.smtp?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return s;
}

let serial = 0;

/**
 * A new diner, signed in (in `request`, whose cookies a page of the same context shares), for whom
 * a start is held now; resolves with the hold page's path (no token: its owner opens it).
 */
export async function heldStart(request: APIRequestContext, base: string, smtp: TestSmtp): Promise<{ path: string; email: string }> {
  const email = `holder-${process.pid}-${Date.now()}-${++serial}@example.jp`;
  const password = 'correct-horse-battery';
  const headers = { origin: base, 'accept-language': 'ja' };
  expect((await request.post(`${base}/api/users`, { headers, data: { name: '確保 花子', email, password, agree: true } })).status()).toBe(201);
  const [welcome] = await smtp.waitFor(1, 60_000, email);
  const token = /\/auth\/verify\?token=([\w-]+)/.exec(welcome!.parsed.text ?? '')![1]!;
  expect((await request.post(`${base}/api/email-verification`, { headers, data: { token } })).status()).toBe(204);
  expect((await request.post(`${base}/api/login`, { headers, data: { email, password } })).status()).toBe(200);

  // A store with 20:00 free for two five days ahead, then full at that start (each table taken by another diner).
  const date = businessDay(5);
  const freeAt = async (storeId: number) => {
    const res = await request.get(`${base}/api/stores/${storeId}/availability?date=${date}&party=2`);
    if (!res.ok()) return undefined;
    const { slots } = (await res.json()) as { slots: { start: string; free_tables: number }[] };
    return slots.find((x) => x.start.slice(11, 16) === '20:00');
  };
  let storeId = 0;
  let start = '';
  for (let id = 1 + (serial % 20); id < 400 && !storeId; id++) {
    const slot = await freeAt(id);
    if (slot && slot.free_tables > 0) [storeId, start] = [id, slot.start];
  }
  expect(storeId, `a store free at 20:00 on ${date}`).toBeGreaterThan(0);
  const taken: { id: number; edit_token: string }[] = [];
  for (let n = 0; (await freeAt(storeId))!.free_tables > 0; n++) {
    expect(n, 'the store fills up').toBeLessThan(30);
    const res = await bookAsAnotherDiner(base, {
      store_id: storeId,
      start,
      party_size: 2,
      name: '先客 太郎',
      name_kana: 'センキャク タロウ',
      phone: `090-2${String(serial).padStart(3, '0')}-${String(1000 + n)}`,
      email: `first-${serial}-${n}-${Date.now()}@example.jp`,
    });
    expect(res.status).toBe(201);
    taken.push((await res.json()) as { id: number; edit_token: string });
  }
  expect(taken.length).toBeGreaterThan(0);

  // Watching that start alone; another diner cancels; the start is held for the watcher and mailed.
  const until = new Date(Date.parse(start) + 60_000).toISOString();
  expect((await request.post(`${base}/api/watches`, { headers, data: { store_id: storeId, party_size: 2, from: start, until } })).status()).toBe(201);
  const first = taken[0]!;
  expect((await request.delete(`${base}/api/guest-bookings/${first.id}`, { headers: { ...headers, 'x-booking-token': first.edit_token } })).status()).toBe(200);
  const mails = await smtp.waitFor(2, 60_000, email);
  const id = mails.map((m) => /\/watches\/hold\/(\d+)\?token=/.exec(m.parsed.text ?? '')?.[1]).find(Boolean);
  expect(id, "the hold's mail").toBeTruthy();
  return { path: `/watches/hold/${id}`, email };
}
