/**
 * Live availability driven by real bookings through the booking API (POST /api/guest-bookings),
 * and a crash in the middle of a booking storm. Runs once the booking API is part of the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDb, startApp, type App } from '../helpers/app';
import { openDb } from '../../src/server/db/client';
import type { Db } from '../../src/server/db/types';
import { sql } from 'drizzle-orm';
import { allDayStoreIds, allDayStoreIdsOfTemplate, SseStream, type Availability } from './live-sse';

const hasBookingApi = fs.existsSync(path.resolve(import.meta.dirname, '../../src/pages/api/guest-bookings/index.ts'));

let guests = 0;
/** Each booking another diner: one diner cannot hold two overlapping bookings at a store. */
const guest = () => {
  const n = ++guests;
  return { name: '試験 太郎', name_kana: 'シケン タロウ', phone: `090-${1000 + n}-5678`, email: `live-storm-${n}@example.jp` };
};

function guestBook(app: App, storeId: number, start: string, party = 2, signal?: AbortSignal) {
  return app.fetch('/api/guest-bookings', { method: 'POST', json: { store_id: storeId, start, party_size: party, ...guest() }, signal });
}

function bookable(snapshot: Map<number, Availability>, skip: number[] = []): Availability {
  const found = [...snapshot.values()].find((a) => a.free_tables > 0 && !skip.includes(a.store_id));
  if (!found) throw new Error('no store bookable now among the all-day stores');
  return found;
}

/** Pairs of confirmed bookings holding one table at overlapping times: must be none. */
async function doubleBooked(db: Db): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from bookings a join bookings b
      on a.table_id = b.table_id and a.id < b.id
     and a.status = 'confirmed' and b.status = 'confirmed'
     and tstzrange(a.starts_at, a.ends_at) && tstzrange(b.starts_at, b.ends_at)`);
  return Number(rows[0]!.n);
}

describe.runIf(hasBookingApi)('live availability with the booking API', () => {
  describe('on the embedded database, one instance', () => {
    let app: App;
    let stores: number[];
    beforeAll(async () => {
      app = await startApp('pglite');
      stores = await allDayStoreIdsOfTemplate(6);
    });
    afterAll(() => app?.stop());

    it('a guest booking and its cancellation each reach an open stream', async () => {
      const s = await SseStream.open(app, `/api/availability/stream?stores=${stores.join(',')}&party=2`);
      try {
        const before = bookable(await s.snapshot(stores));
        const res = await guestBook(app, before.store_id, before.next_slots[0]!);
        expect(res.status).toBe(201);
        const booking = await res.json();
        const after = await s.nth(before.store_id, 2);
        expect(after).not.toEqual(before);

        const del = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
        expect(del.status).toBeLessThan(300);
        const restored = await s.nth(before.store_id, 3);
        // The same table is free again (unless a 15-minute mark passed meanwhile and moved the slots).
        if (restored.next_slots[0] === before.next_slots[0]) expect({ ...restored, rev: 0 }).toEqual({ ...before, rev: 0 });
      } finally {
        s.close();
      }
    });
  });

  describe('two instances on one PostgreSQL', () => {
    let a: App;
    let b: App;
    let stores: number[];
    beforeAll(async () => {
      a = await startApp('postgres');
      b = await startApp('postgres', {}, { databaseUrl: a.databaseUrl });
      const h = await openAppDb(a);
      stores = await allDayStoreIds(h.db, 20);
      await h.close();
    });
    afterAll(async () => {
      await b?.stop();
      await a?.stop();
    });

    it('a booking made through instance A shows on a stream served by instance B', async () => {
      const watched = stores.slice(0, 4);
      const s = await SseStream.open(b, `/api/availability/stream?stores=${watched.join(',')}&party=2`);
      try {
        const before = bookable(await s.snapshot(watched));
        expect((await guestBook(a, before.store_id, before.next_slots[0]!)).status).toBe(201);
        expect(await s.nth(before.store_id, 2)).not.toEqual(before);
      } finally {
        s.close();
      }
    });

    it('kill -9 of an instance in a booking storm: every 201 is stored, no table is double-booked', async () => {
      const watched = stores.slice(4, 20);
      const s = await SseStream.open(b, `/api/availability/stream?stores=${watched.join(',')}&party=2`);
      const snapshot = await s.snapshot(watched);
      s.close();
      const targets = [...snapshot.values()].flatMap((x) => x.next_slots.map((start) => ({ store: x.store_id, start })));
      expect(targets.length).toBeGreaterThan(4);

      const confirmed: { id: number; code: string; via: string }[] = [];
      let killed = false;
      let fromA = 0;
      const worker = async (w: number) => {
        for (let i = 0; i < 30; i++) {
          const target = targets[(w * 7 + i) % targets.length]!;
          // Both instances share the load until A dies; then B takes all of it.
          const app = !killed && (w + i) % 2 === 0 ? a : b;
          const res = await guestBook(app, target.store, target.start, 1 + ((w + i) % 3)).catch(() => null);
          if (!res) continue; // the connection died with instance A: no answer, no promise made
          if (res.status === 201) {
            const body = await res.json();
            confirmed.push({ id: body.id, code: body.code, via: app === a ? 'A' : 'B' });
            if (app === a && ++fromA === 5 && !killed) {
              killed = true;
              a.process.kill('SIGKILL');
            }
          } else {
            // Taken, no fitting table, or a start that just became past: refused, and nothing was promised.
            expect([400, 409, 422], await res.text()).toContain(res.status);
          }
        }
      };
      await Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));
      expect(killed).toBe(true);
      expect(confirmed.some((c) => c.via === 'A')).toBe(true);

      const h = await openDb({ databaseUrl: a.databaseUrl!, max: 2 });
      try {
        const rows = await h.db.execute<{ id: number; code: string; status: string }>(
          sql`select id, code, status from bookings where id = any(${`{${confirmed.map((c) => c.id).join(',')}}`}::int[])`,
        );
        const stored = new Map(rows.map((r) => [Number(r.id), r]));
        for (const c of confirmed) {
          expect(stored.get(c.id)?.code, `booking ${c.id} answered 201 by ${c.via}`).toBe(c.code);
          expect(stored.get(c.id)?.status).toBe('confirmed');
        }
        expect(await doubleBooked(h.db)).toBe(0);
      } finally {
        await h.close();
      }
    }, 120_000); // a storm, a kill and a reopen: long on a busy 2-core machine
  });

  it('kill -9 of the embedded instance in a booking storm loses no answered booking', async () => {
    const app = await startApp('pglite');
    try {
      const stores = await allDayStoreIdsOfTemplate(12);
      const s = await SseStream.open(app, `/api/availability/stream?stores=${stores.join(',')}&party=2`);
      const snapshot = await s.snapshot(stores);
      s.close();
      const targets = [...snapshot.values()].flatMap((x) => x.next_slots.map((start) => ({ store: x.store_id, start })));
      const confirmed: { id: number; code: string }[] = [];
      let killed = false;
      const worker = async (w: number) => {
        for (let i = 0; i < 25 && !killed; i++) {
          const target = targets[(w * 5 + i) % targets.length]!;
          const res = await guestBook(app, target.store, target.start, 1 + ((w + i) % 3)).catch(() => null);
          if (res?.status === 201) {
            const body = await res.json();
            confirmed.push({ id: body.id, code: body.code });
            if (confirmed.length === 8 && !killed) {
              killed = true;
              app.process.kill('SIGKILL');
            }
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
      expect(killed).toBe(true);
      await new Promise<void>((resolve) =>
        app.process.exitCode !== null || app.process.signalCode !== null ? resolve() : app.process.once('exit', () => resolve()),
      );

      // The lock of the killed process is stale: reopening takes it over.
      const h = await openDb({ dataDir: app.dataDir! });
      try {
        const rows = await h.db.execute<{ id: number; code: string }>(sql`select id, code from bookings where status = 'confirmed'`);
        const stored = new Map(rows.map((r) => [Number(r.id), r.code]));
        for (const c of confirmed) expect(stored.get(c.id), `booking ${c.id}`).toBe(c.code);
        expect(await doubleBooked(h.db)).toBe(0);
      } finally {
        await h.close();
      }
    } finally {
      await app.stop();
    }
  }, 120_000); // a server start, a storm and a reopen: long on a busy 2-core machine

  it('SIGTERM in a booking storm (npm start): answered bookings are stored, the process drains and exits 0', async () => {
    const app = await startApp('pglite');
    try {
      const stores = await allDayStoreIdsOfTemplate(12);
      const s = await SseStream.open(app, `/api/availability/stream?stores=${stores.join(',')}&party=2`);
      const snapshot = await s.snapshot(stores);
      const targets = [...snapshot.values()].flatMap((x) => x.next_slots.map((start) => ({ store: x.store_id, start })));
      const confirmed: { id: number; code: string }[] = [];
      let signalled = false;
      const exited = new Promise<number | null>((resolve) => app.process.once('exit', (code) => resolve(code)));
      const worker = async (w: number) => {
        for (let i = 0; i < 25; i++) {
          const target = targets[(w * 5 + i) % targets.length]!;
          const res = await guestBook(app, target.store, target.start, 1 + ((w + i) % 3)).catch(() => null);
          if (!res) break; // the server stopped accepting
          if (res.status === 201) {
            const body = await res.json();
            confirmed.push({ id: body.id, code: body.code });
            if (confirmed.length === 6 && !signalled) {
              signalled = true;
              app.process.kill('SIGTERM');
            }
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
      expect(signalled).toBe(true);
      await s.closedByServer();
      expect(await exited).toBe(0);
      expect(app.output()).toContain('"msg":"stopped","drained":true');
      expect(fs.existsSync(path.join(app.dataDir!, 'sugu.lock'))).toBe(false);

      const h = await openDb({ dataDir: app.dataDir! });
      try {
        const rows = await h.db.execute<{ id: number; code: string }>(sql`select id, code from bookings where status = 'confirmed'`);
        const stored = new Map(rows.map((r) => [Number(r.id), r.code]));
        for (const c of confirmed) expect(stored.get(c.id), `booking ${c.id}`).toBe(c.code);
      } finally {
        await h.close();
      }
    } finally {
      await app.stop();
    }
  }, 120_000); // a server start, a storm and a drain: long on a busy 2-core machine
});
