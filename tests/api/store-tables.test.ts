/**
 * Table settings on both engines: turn time per party size (the store's default for the others)
 * is the length of every slot a diner sees and the end of a booking; a walk-in-only table is never
 * offered nor booked online, yet staff can still block it; bad settings are refused with the field
 * named and nothing written. On PostgreSQL, a table set walk-in only through one instance reaches
 * another instance's stream and listing. Days are counted from today's business day on the
 * 24-hour and evening test stores, so any hour works.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb } from '../helpers/app';
import { tokyoStart } from './booking-fixtures';
import { bearer, staffServer, twoInstances, bookableNearby, staffLogin } from './store-fixtures';
import { SseStream } from './live-sse';
import { storeDaySchema, storeTablesSchema } from '../../src/lib/contract/staff';
import { addTokyoDays } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';

type Json = Record<string, any>;
const day = (n: number) => addTokyoDays(businessDate(new Date()), n);
let guests = 0;
/** A guest of their own for each booking: one diner is never booked twice at once. */
const guest = () => ({ name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-1234-${String(1000 + ++guests)}`, email: `tables-${guests}@example.jp` });
const minutes = (s: Json) => (Date.parse(s.end) - Date.parse(s.start)) / 60_000;

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`store table settings [${engine}]`, () => {
    const s = staffServer(engine);

    const tables = async (storeId: number, token = s.tokenA) =>
      z.parse(storeTablesSchema, await (await s.app.fetch(`/api/store/tables?store_id=${storeId}`, { headers: bearer(token) })).json());
    const turnTimes = (body: Json, token = s.tokenA) =>
      s.app.fetch('/api/store/turn-times', { method: 'PUT', headers: bearer(token), json: { store_id: s.fx.storeId, ...body } });
    const slots = async (storeId: number, date: string, party: number) =>
      ((await (await s.app.fetch(`/api/stores/${storeId}/availability?date=${date}&party=${party}`)).json()) as Json).slots as Json[];
    const book = (storeId: number, start: string, party: number) =>
      s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest(), store_id: storeId, start, party_size: party } });

    it('turn time by party size is every slot’s length and a booking’s end; other sizes keep the default', async () => {
      const res = await turnTimes({
        stay_minutes: 120,
        turn_times: [
          { party_size: 6, minutes: 150 },
          { party_size: 2, minutes: 90 },
        ],
      });
      expect(res.status).toBe(200);
      const settings = z.parse(storeTablesSchema, await res.json());
      expect(settings).toMatchObject({
        stay_minutes: 120,
        turn_times: [
          { party_size: 2, minutes: 90 },
          { party_size: 6, minutes: 150 },
        ],
      });
      for (const [party, stay] of [
        [2, 90],
        [6, 150],
        [3, 120],
      ] as const) {
        const lengths = new Set((await slots(s.fx.storeId, day(2), party)).map(minutes));
        expect([party, [...lengths]]).toEqual([party, [stay]]);
      }
      for (const [party, stay, hour] of [
        [2, 90, 12],
        [6, 150, 13],
        [4, 120, 14],
      ] as const) {
        const made = await book(s.fx.storeId, tokyoStart(2, hour), party);
        expect([party, made.status]).toEqual([party, 201]);
        expect([party, minutes((await made.json()) as Json)]).toEqual([party, stay]);
      }
      const page = await (await s.app.fetch(`/store/${s.fx.storeId}`, { headers: { 'accept-language': 'ja' } })).text();
      expect(page).toContain('data-turn-times');
      expect(page).toContain('2名 90分制');
      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const rows = await h.sql`select action, detail from staff_audit where store_id = ${s.fx.storeId} and action = 'turn_times_set'`;
          expect(rows).toHaveLength(1);
          expect(rows[0]!.detail).toMatchObject({ stay_minutes: 120 });
        } finally {
          await h.close();
        }
      }
    });

    it('refuses bad turn times with the field named, and writes nothing', async () => {
      const before = await tables(s.fx.storeId);
      for (const [what, body, status, field] of [
        ['no default', { turn_times: [] }, 400, 'stay_minutes'],
        ['a zero-minute stay', { stay_minutes: 0, turn_times: [] }, 400, 'stay_minutes'],
        ['a day-long stay', { stay_minutes: 120, turn_times: [{ party_size: 2, minutes: 24 * 60 }] }, 400, 'turn_times.0.minutes'],
        ['no such party', { stay_minutes: 120, turn_times: [{ party_size: 0, minutes: 90 }] }, 400, 'turn_times.0.party_size'],
        [
          'a size twice',
          {
            stay_minutes: 120,
            turn_times: [
              { party_size: 2, minutes: 90 },
              { party_size: 2, minutes: 60 },
            ],
          },
          400,
          'turn_times',
        ],
        ['minutes as text', { stay_minutes: '90分', turn_times: [] }, 400, 'stay_minutes'],
        ['another store', { store_id: s.fx.tinyStoreId, stay_minutes: 60, turn_times: [] }, 404, ''],
      ] as const) {
        const res = await turnTimes(body);
        const error = ((await res.json()) as Json).error;
        expect([what, res.status]).toEqual([what, status]);
        if (field) expect([what, Object.keys(error.fields ?? {})]).toEqual([what, [field]]);
      }
      expect(await tables(s.fx.storeId)).toEqual(before);
    });

    it('a walk-in-only table is never offered nor booked online, and staff can still block it', async () => {
      const all = await tables(s.fx.storeId);
      const counter = all.items.find((t) => t.kind === 'counter')!;
      const patch = (id: number, online: unknown, token = s.tokenA) =>
        s.app.fetch(`/api/store/tables/${id}`, { method: 'PATCH', headers: bearer(token), json: { online } });
      expect((await patch(counter.id, false, s.tokenB)).status).toBe(404);
      expect(Object.keys(((await (await patch(counter.id, 'no')).json()) as Json).error.fields)).toEqual(['online']);
      const res = await patch(counter.id, false);
      expect(res.status).toBe(200);
      expect((await res.json()) as Json).toMatchObject({ id: counter.id, online: false });
      // Four tables seat a party of four; with the counter walk-in only, three are offered and booked.
      const online = all.items.filter((t) => t.id !== counter.id && t.max_party >= 4).length;
      const at = (await slots(s.fx.storeId, day(4), 4)).find((slot) => Date.parse(slot.start) === Date.parse(tokyoStart(4, 19)))!;
      expect(at.free_tables).toBe(online);
      const made: number[] = [];
      for (let i = 0; i < online + 1; i++) made.push((await book(s.fx.storeId, tokyoStart(4, 19), 4)).status);
      expect(made).toEqual([...Array(online).fill(201), 409]);
      const dayList = z.parse(
        storeDaySchema,
        await (await s.app.fetch(`/api/store/bookings?store_id=${s.fx.storeId}&date=${day(4)}`, { headers: bearer(s.tokenA) })).json(),
      );
      const tablesUsed = dayList.items.filter((b) => Date.parse(b.start) === Date.parse(tokyoStart(4, 19))).map((b) => b.table.id);
      expect(tablesUsed).toHaveLength(online);
      expect(tablesUsed).not.toContain(counter.id);
      // Staff seat a walk-in there.
      const blocked = await s.app.fetch('/api/store/blocks', {
        method: 'POST',
        headers: bearer(s.tokenA),
        json: { store_id: s.fx.storeId, table_id: counter.id, start: tokyoStart(4, 19), end: tokyoStart(4, 21) },
      });
      expect(blocked.status).toBe(201);

      // The evening store's one table walk-in only: nothing to book there, online again: bookable.
      const evening = (await tables(s.fx.eveningStoreId)).items[0]!;
      expect((await patch(evening.id, false)).status).toBe(200);
      expect((await slots(s.fx.eveningStoreId, day(4), 2)).every((slot) => slot.free_tables === 0)).toBe(true);
      expect((await book(s.fx.eveningStoreId, tokyoStart(4, 19), 2)).status).toBeGreaterThanOrEqual(400);
      expect((await patch(evening.id, true)).status).toBe(200);
      expect((await book(s.fx.eveningStoreId, tokyoStart(4, 19), 2)).status).toBe(201);
      expect((await patch(counter.id, true)).status).toBe(200);
      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const rows = await h.sql`select target_id, detail from staff_audit where store_id = ${s.fx.storeId} and action = 'table_set' order by id`;
          expect(rows.map((r) => [r.target_id, r.detail])).toEqual([
            [counter.id, { online: false }],
            [counter.id, { online: true }],
          ]);
        } finally {
          await h.close();
        }
      }
    });
  });
}

describe('a walk-in-only table reaches another instance’s stream and listing', () => {
  const s = twoInstances();

  it('the 24-hour bar’s one table set walk-in only through A leaves B’s stream and list; back online, it returns', async () => {
    const { a, b } = s;
    const headers = { authorization: `Bearer ${(await staffLogin(a, s.fx.staffB)).token}` };
    const table = z.parse(storeTablesSchema, await (await a.fetch('/api/store/tables', { headers })).json()).items[0]!.id;
    const stream = await SseStream.open(b, `/api/availability/stream?stores=${s.fx.tinyStoreId}&party=2`);
    try {
      expect((await stream.snapshot([s.fx.tinyStoreId])).get(s.fx.tinyStoreId)!.free_tables).toBe(1);
      expect(await bookableNearby(b)).toContain(s.fx.tinyStoreId);
      expect((await a.fetch(`/api/store/tables/${table}`, { method: 'PATCH', headers, json: { online: false } })).status).toBe(200);
      await stream.until(() => stream.latest().get(s.fx.tinyStoreId)?.free_tables === 0, 'the walk-in-only bar');
      expect(await bookableNearby(b)).not.toContain(s.fx.tinyStoreId);
      expect((await a.fetch(`/api/store/tables/${table}`, { method: 'PATCH', headers, json: { online: true } })).status).toBe(200);
      await stream.until(() => stream.latest().get(s.fx.tinyStoreId)?.free_tables === 1, 'the bar bookable again');
      expect(await bookableNearby(b)).toContain(s.fx.tinyStoreId);
    } finally {
      stream.close();
    }
  });
});
