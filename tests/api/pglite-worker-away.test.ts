/**
 * PGlite's worker process failing degrades like PostgreSQL away (issue 26 §6), on a real built
 * server: the test finds the server's PGlite worker process and kills it (-9), with its database
 * folder moved out of reach so that the restarts fail for as long as the degraded answers are
 * checked. Meanwhile the listing and store pages are served from memory with the notice, a booking
 * answers 503 with Retry-After within two seconds, and /readyz says not ready; once the folder is
 * back a new worker reopens it (a booking made before is still there) and the server resumes
 * without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, until, type App } from '../helpers/app';
import { DEMO_USER } from '../../src/server/db/seed-data';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays } from '../../src/lib/datetime';

type Slot = { start: string; free_tables: number };

/** The PGlite worker processes the server `pid` started (Linux /proc). */
function workersOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: the command name may hold spaces, so read after its ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('pglite-worker.mjs')) found.push(Number(entry));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return found;
}

describe('PGlite worker away [pglite]', () => {
  let app: App;
  let cookie: string;
  let storeId: number;
  let date: string;

  const slotsOn = async () => {
    const res = await app.fetch(`/api/stores/${storeId}/availability?party=2&date=${date}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { slots: Slot[] }).slots;
  };
  /** Two free starts four hours apart: one diner's bookings that do not overlap. */
  const twoApart = (slots: Slot[]) => {
    const free = slots.filter((x) => x.free_tables > 1);
    const later = free.find((x) => Date.parse(x.start) >= Date.parse(free[0]!.start) + 4 * 3600_000);
    return later ? ([free[0]!, later] as const) : null;
  };
  const book = (start: string, lang = 'ja') =>
    app.fetch('/api/bookings', { method: 'POST', cookie, headers: { 'accept-language': lang }, json: { store_id: storeId, start, party_size: 2 } });

  beforeAll(async () => {
    app = await startApp('pglite');
    const login = await app.fetch('/api/login', { method: 'POST', json: { email: DEMO_USER.email, password: DEMO_USER.password } });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    // A store with free starts tomorrow, for two.
    const listed = (await (await app.fetch('/api/stores?per_page=50')).json()) as { items: { id: number }[] };
    date = addTokyoDays(businessDate(new Date()), 1);
    for (const s of listed.items) {
      storeId = s.id;
      if (twoApart(await slotsOn())) break;
    }
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('killed, it is answered around like PostgreSQL away, restarted, and the server resumes by itself', async () => {
    expect((await app.fetch('/home')).status).toBe(200);
    expect((await app.fetch(`/store/${storeId}`)).status).toBe(200);
    const [first, second] = twoApart(await slotsOn())!;
    const before = await book(first.start);
    expect(before.status).toBe(201);
    const kept = ((await before.json()) as { id: number }).id;

    const serverPid = app.process.pid!;
    const [worker, ...more] = workersOf(serverPid);
    expect(worker).toBeGreaterThan(0);
    expect(more).toEqual([]);
    const files = path.join(app.dataDir!, 'pglite');
    const moved = `${files}.away`;
    const from = app.output().length;
    // The folder out of reach first (an unmounted disk), then the worker killed as the OOM killer would.
    fs.renameSync(files, moved);
    try {
      process.kill(worker!, 'SIGKILL');
      await until(async () => (await app.fetch('/readyz')).status === 503, 'readyz 503 with the worker gone');
      await app.waitForOutput(/"msg":"pglite_worker_exited"/, 'the worker’s exit noticed', from);

      for (const who of [undefined, cookie]) {
        const home = await app.fetch('/home', { cookie: who, headers: { 'accept-language': 'ja' } });
        expect([home.status, who ? 'signed in' : 'anonymous']).toEqual([200, who ? 'signed in' : 'anonymous']);
        const html = await home.text();
        expect(html).toContain('data-booking-paused');
        expect(html).toContain('予約の受付を一時停止しています');
        // The listing itself, from the index.
        expect(html).toMatch(/href="\/store\/\d+/);
      }
      const store = await app.fetch(`/store/${storeId}`, { headers: { 'accept-language': 'ja' } });
      expect(store.status).toBe(200);
      expect(await store.text()).toContain('data-booking-paused');

      const started = Date.now();
      const refused = await book(second.start);
      const elapsed = Date.now() - started;
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('database_away');
      expect(error.message).toContain('一時停止');
      expect(elapsed).toBeLessThan(2000);
      const english = await book(second.start, 'en');
      expect(english.status).toBe(503);
      expect(((await english.json()) as { error: { message: string } }).error.message).not.toMatch(/[ぁ-ん]/);

      // A restart found no database where the files were, and did not make an empty one.
      await app.waitForOutput(/"msg":"pglite_worker_restart_failed"[^\n]*no database in/, 'a restart refused without the files', from);
      expect((await app.fetch('/readyz')).status).toBe(503);
    } finally {
      fs.renameSync(moved, files);
    }

    await until(async () => (await app.fetch('/readyz')).status === 200, 'readyz 200 once a new worker answers');
    expect(app.output().slice(from)).toMatch(/"msg":"pglite_worker_restarted"/);
    const [restarted] = workersOf(serverPid);
    expect(restarted).toBeGreaterThan(0);
    expect(restarted).not.toBe(worker);

    const booked = await book(second.start);
    expect(booked.status).toBe(201);
    // The files were reopened: the booking made before the fault is there.
    const mine = (await (await app.fetch('/api/bookings', { cookie })).json()) as { items: { id: number }[] };
    expect(mine.items.map((b) => b.id)).toContain(kept);
    // The index serves again, the new booking counted.
    await until(
      async () => (await slotsOn()).find((x) => x.start === second.start)?.free_tables === second.free_tables - 1,
      'the new booking in the availability',
    );
    const home = await app.fetch('/home', { cookie });
    expect(home.status).toBe(200);
    expect(await home.text()).not.toContain('data-booking-paused');
  }, 240_000);
});
