/**
 * Reliability: a mixed storm on ONE store — simultaneous guest bookings, edits and cancellations
 * through the API — on both engines, then the outcome checked against the database itself:
 * no two confirmed bookings overlap on a table, every 201-answered booking exists in the state its
 * answers promised, and the availability API's free-table counts equal "tables fitting the party
 * minus confirmed bookings holding them" at every slot of the day.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { openDb } from '../../src/server/db/client';
import type { DbHandle } from '../../src/server/db/types';
import { bookings, storeTables } from '../../src/server/db/schema';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays } from '../../src/lib/datetime';
import { openAppDb, startApp, type App } from '../helpers/app';
import { prepare, tokyoStart, type Fixture } from './booking-fixtures';

type Json = Record<string, any>;
const DAYS = 3;
/** Starts 18:00–21:00 every 15 minutes: with a 2-hour stay, all of them overlap some others. */
const MARKS = Array.from({ length: 13 }, (_, i) => tokyoStart(DAYS, 18 + Math.floor(i / 4), (i % 4) * 15));

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`booking storm on one store [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let dataDir: string | undefined;
    /** Opens the database to read what was stored (an embedded one only after its server stopped). */
    let openForReading: () => Promise<DbHandle>;

    beforeAll(async () => {
      if (engine === 'pglite') {
        dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-storm-'));
        fs.cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
        const h = await openDb({ dataDir });
        try {
          fx = await prepare(h.db);
        } finally {
          await h.close();
        }
        app = await startApp('pglite', { DATA_DIR: dataDir });
        openForReading = async () => (await app.stop(), openDb({ dataDir: dataDir! }));
      } else {
        app = await startApp('postgres');
        const h = await openAppDb(app);
        try {
          fx = await prepare(h.db);
        } finally {
          await h.close();
        }
        openForReading = () => openAppDb(app);
      }
    });
    afterAll(async () => {
      await app?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('ends with no overlap, every 201 present as promised, and free-table counts that add up', async () => {
      const rand = rng(engine === 'pglite' ? 7 : 11);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      let n = 0;
      const create = () =>
        app.fetch('/api/guest-bookings', {
          method: 'POST',
          json: {
            store_id: fx.storeId,
            start: pick(MARKS),
            party_size: pick([1, 2, 2, 3, 4, 4, 5, 6]),
            name: '嵐 太郎',
            name_kana: 'アラシ タロウ',
            phone: `090-1${String(++n).padStart(3, '0')}-5678`,
            email: `storm${n}@example.jp`,
          },
        });

      /** What each 201 promised, updated by later 200 answers. */
      const expected = new Map<number, { token: string; start: string; party: number; status: string }>();
      const statuses: Record<string, number[]> = { create: [], edit: [], cancel: [] };
      const record = async (res: Response) => {
        statuses.create!.push(res.status);
        if (res.status === 201) {
          const b = (await res.json()) as Json;
          expected.set(b.id, { token: b.edit_token, start: b.start, party: b.party_size, status: b.status });
        } else await res.body?.cancel();
      };

      // Phase 1: 30 bookings at once.
      await Promise.all(Array.from({ length: 30 }, () => create().then(record)));
      const first = [...expected.keys()];
      expect(first.length).toBeGreaterThan(3);

      // Phase 2: new bookings, edits and cancellations all at once (each booking is edited or cancelled, not both).
      const work: Promise<void>[] = [];
      first.forEach((id, i) => {
        const b = expected.get(id)!;
        const headers = { 'x-booking-token': b.token };
        if (i % 3 === 0) {
          work.push(
            app
              .fetch(`/api/guest-bookings/${id}`, { method: 'PATCH', headers, json: { start: pick(MARKS), party_size: pick([1, 2, 3, 4, 5, 6]) } })
              .then(async (res) => {
                statuses.edit!.push(res.status);
                if (res.status === 200) {
                  const changed = (await res.json()) as Json;
                  Object.assign(b, { start: changed.start, party: changed.party_size, status: changed.status });
                } else await res.body?.cancel();
              }),
          );
        } else if (i % 3 === 1) {
          work.push(
            app.fetch(`/api/guest-bookings/${id}`, { method: 'DELETE', headers }).then(async (res) => {
              statuses.cancel!.push(res.status);
              if (res.status === 200) b.status = ((await res.json()) as Json).status;
              else await res.body?.cancel();
            }),
          );
        }
      });
      for (let i = 0; i < 15; i++) work.push(create().then(record));
      await Promise.all(work);

      // Only the answers the contract allows; a lost race is a 409, never a 5xx.
      expect(
        statuses.create!.every((s) => s === 201 || s === 409),
        `create: ${statuses.create}`,
      ).toBe(true);
      expect(
        statuses.edit!.every((s) => s === 200 || s === 409),
        `edit: ${statuses.edit}`,
      ).toBe(true);
      expect(
        statuses.cancel!.every((s) => s === 200),
        `cancel: ${statuses.cancel}`,
      ).toBe(true);
      expect(statuses.create!.filter((s) => s === 409).length).toBeGreaterThan(0); // the storm did contend

      // Every 201-answered booking reads back as its last successful answer said.
      for (const [id, b] of expected) {
        const res = await app.fetch(`/api/guest-bookings/${id}`, { headers: { 'x-booking-token': b.token } });
        expect([id, res.status]).toEqual([id, 200]);
        const got = (await res.json()) as Json;
        expect({ id, start: got.start, party: got.party_size, status: got.status }).toEqual({ id, start: b.start, party: b.party, status: b.status });
      }

      // The availability API, for every party size the store seats, at every slot of the day.
      const date = addTokyoDays(businessDate(new Date()), DAYS);
      const api = new Map<number, Json[]>();
      for (const party of [1, 2, 3, 4, 5, 6]) {
        const res = await app.fetch(`/api/stores/${fx.storeId}/availability?date=${date}&party=${party}`);
        expect(res.status).toBe(200);
        api.set(party, ((await res.json()) as Json).slots);
      }

      const h = await openForReading();
      try {
        const tables = await h.db.select().from(storeTables).where(eq(storeTables.storeId, fx.storeId));
        const held = await h.db
          .select({ id: bookings.id, tableId: bookings.tableId, startsAt: bookings.startsAt, endsAt: bookings.endsAt, partySize: bookings.partySize })
          .from(bookings)
          .where(and(eq(bookings.storeId, fx.storeId), eq(bookings.status, 'confirmed')));

        // No two confirmed bookings on one table overlap (checked by the database and again here).
        const overlaps = (await h.db.execute(sql`
          select a.id as a, b.id as b from bookings a join bookings b
            on a.table_id = b.table_id and a.id < b.id and a.starts_at < b.ends_at and b.starts_at < a.ends_at
          where a.store_id = ${fx.storeId} and a.status = 'confirmed' and b.status = 'confirmed'`)) as unknown as { rows?: unknown[] } | unknown[];
        expect(Array.isArray(overlaps) ? overlaps : (overlaps.rows ?? [])).toEqual([]);
        for (const a of held)
          for (const b of held)
            if (a.id < b.id && a.tableId === b.tableId) expect(a.startsAt < b.endsAt && b.startsAt < a.endsAt, `bookings ${a.id} and ${b.id}`).toBe(false);

        // Each confirmed booking sits on a table that fits its party.
        for (const b of held) {
          const t = tables.find((x) => x.id === b.tableId)!;
          expect(b.partySize >= t.minParty && b.partySize <= t.maxParty, `booking ${b.id} on ${t.label}`).toBe(true);
        }

        // The database holds exactly the bookings the API said are confirmed.
        const confirmed = [...expected]
          .filter(([, b]) => b.status === 'confirmed')
          .map(([id]) => id)
          .sort((x, y) => x - y);
        expect(held.map((b) => b.id).sort((x, y) => x - y)).toEqual(confirmed);

        // Free tables = tables fitting the party − those a confirmed booking holds during the stay.
        let busySlots = 0;
        for (const [party, slots] of api) {
          expect(slots.length).toBe(96); // open 24 hours: every 15-minute start of the business day
          for (const s of slots) {
            const start = new Date(s.start);
            const end = new Date(s.end);
            const fitting = tables.filter((t) => t.minParty <= party && party <= t.maxParty);
            const taken = new Set(held.filter((b) => b.startsAt < end && start < b.endsAt).map((b) => b.tableId));
            const want = fitting.filter((t) => !taken.has(t.id)).length;
            expect({ party, start: s.start, free: s.free_tables }).toEqual({ party, start: s.start, free: want });
            if (want < fitting.length) busySlots++;
          }
        }
        expect(busySlots).toBeGreaterThan(0);
      } finally {
        await h.close();
      }
    }, 120_000);
  });
}
