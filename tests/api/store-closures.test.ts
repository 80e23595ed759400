/**
 * One-off days (臨時休業, changed hours) on both engines: closing a day with bookings lists them
 * for the store and cancels none, and the day is no longer bookable (slots, booking, store page);
 * changed hours past midnight are the day's slots and bookings; bad days and times are refused
 * with the field named and nothing written; removing a day gives the week's hours back. On
 * PostgreSQL, a closure made through one instance reaches another instance's stream and listing.
 * Days are counted from today's business day and hours are the test stores' own, so any hour works.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb } from '../helpers/app';
import { isoTokyo, tokyoStart } from './booking-fixtures';
import { bearer, staffServer, twoInstances, bookableNearby, staffLogin } from './store-fixtures';
import { SseStream } from './live-sse';
import { closureChangeSchema, closureListSchema } from '../../src/lib/contract/staff';
import { addTokyoDays } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';

type Json = Record<string, any>;
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };
const day = (n: number) => addTokyoDays(businessDate(new Date()), n);

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`store closures [${engine}]`, () => {
    const s = staffServer(engine);

    const setDay = (body: Json, token = s.tokenA) =>
      s.app.fetch('/api/store/closures', { method: 'PUT', headers: bearer(token), json: { store_id: s.fx.eveningStoreId, ...body } });
    const list = async (token = s.tokenA, storeId = s.fx.eveningStoreId) =>
      z.parse(closureListSchema, await (await s.app.fetch(`/api/store/closures?store_id=${storeId}`, { headers: bearer(token) })).json()).items;
    const slots = async (date: string) =>
      ((await (await s.app.fetch(`/api/stores/${s.fx.eveningStoreId}/availability?date=${date}&party=2`)).json()) as Json).slots as Json[];
    const book = (start: string) =>
      s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.eveningStoreId, start, party_size: 2 } });

    it('closing a day with bookings lists them, cancels none, and the day is no longer bookable', async () => {
      const made = await book(tokyoStart(3, 19));
      expect(made.status).toBe(201);
      const booking = (await made.json()) as Json;
      expect((await slots(day(3))).length).toBeGreaterThan(0);

      const res = await setDay({ date: day(3), hours: [], note: '設備点検' });
      expect(res.status).toBe(200);
      const answer = z.parse(closureChangeSchema, await res.json());
      expect(answer.closure).toMatchObject({ store_id: s.fx.eveningStoreId, date: day(3), closed: true, hours: [], note: '設備点検' });
      expect(answer.outside_hours.map((b) => b.id)).toEqual([booking.id]);
      expect(answer.outside_hours[0]!.status).toBe('confirmed');
      // Still confirmed in the day's list, for the store to call.
      const dayList = (await (
        await s.app.fetch(`/api/store/bookings?store_id=${s.fx.eveningStoreId}&date=${day(3)}`, { headers: bearer(s.tokenA) })
      ).json()) as Json;
      expect(dayList.items.find((b: Json) => b.id === booking.id).status).toBe('confirmed');

      expect(await slots(day(3))).toEqual([]);
      const refused = await book(tokyoStart(3, 20));
      expect([refused.status, Object.keys(((await refused.json()) as Json).error.fields)]).toEqual([400, ['start']]);
      expect((await slots(day(4))).length).toBeGreaterThan(0);
      const page = await (await s.app.fetch(`/store/${s.fx.eveningStoreId}?date=${day(3)}`, { headers: { 'accept-language': 'ja' } })).text();
      expect(page).toContain('data-day-closure="closed"');
      expect(page).toContain('臨時休業');
      expect((await list()).map((c) => c.date)).toContain(day(3));

      // Removed: the week's hours again, nothing outside them.
      const id = answer.closure!.id;
      expect((await s.app.fetch(`/api/store/closures/${id}`, { method: 'DELETE', headers: bearer(s.tokenB) })).status).toBe(404);
      const back = await s.app.fetch(`/api/store/closures/${id}`, { method: 'DELETE', headers: bearer(s.tokenA) });
      expect(back.status).toBe(200);
      expect(z.parse(closureChangeSchema, await back.json())).toMatchObject({ closure: null, outside_hours: [] });
      expect((await slots(day(3))).length).toBeGreaterThan(0);
      expect((await s.app.fetch(`/api/store/closures/${id}`, { method: 'DELETE', headers: bearer(s.tokenA) })).status).toBe(404);
      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const rows = await h.sql`select action from staff_audit where store_id = ${s.fx.eveningStoreId} and action like 'closure_%' order by id`;
          expect(rows.map((r) => r.action)).toEqual(['closure_set', 'closure_remove']);
        } finally {
          await h.close();
        }
      }
    });

    it('changed hours past midnight are the day’s slots and bookings, and the store page shows them', async () => {
      // The evening store opens 17:00–23:00; on this day 20:00–翌2:00 instead.
      const res = await setDay({ date: day(5), hours: [{ opens: '20:00', closes: '26:00' }] });
      expect(res.status).toBe(200);
      expect(z.parse(closureChangeSchema, await res.json()).closure).toMatchObject({ closed: false, hours: [{ opens: '20:00', closes: '26:00' }] });
      const starts = (await slots(day(5))).map((slot) => slot.start as string);
      expect(starts[0]).toBe(isoTokyo(tokyoStart(5, 20)));
      // A two-hour stay ending by 02:00: the last start is midnight.
      expect(starts[starts.length - 1]).toBe(isoTokyo(tokyoStart(5, 24)));
      expect((await book(tokyoStart(5, 18))).status).toBe(400);
      const late = await book(tokyoStart(5, 23, 30));
      expect(late.status).toBe(201);
      const stay = (await late.json()) as Json;
      expect(Date.parse(stay.end) - Date.parse(stay.start)).toBe(2 * 3600_000);
      const page = await (await s.app.fetch(`/store/${s.fx.eveningStoreId}?date=${day(5)}`, { headers: { 'accept-language': 'ja' } })).text();
      expect(page).toContain('data-day-closure="changed"');
      expect(page).toMatch(/20:00〜(翌)?2:00|20:00〜26:00/);
      // Setting the day again replaces it (shorter: the 23:30 booking is now outside).
      const shorter = z.parse(closureChangeSchema, await (await setDay({ date: day(5), hours: [{ opens: '20:00', closes: '23:00' }] })).json());
      expect(shorter.outside_hours.map((b) => b.start)).toEqual([expect.stringContaining('T23:30:00+09:00')]);
      expect((await list()).filter((c) => c.date === day(5))).toHaveLength(1);
    });

    it('refuses past and far days, malformed times and other stores with the field named, and writes nothing', async () => {
      const before = await list();
      const cases: Array<[string, Json, number, string]> = [
        ['yesterday', { date: day(-1), hours: [] }, 400, 'date'],
        ['past the bookable days', { date: day(14), hours: [] }, 400, 'date'],
        ['no such date', { date: '2026-02-30', hours: [] }, 400, 'date'],
        ['not a date', { date: 'あした', hours: [] }, 400, 'date'],
        ['malformed time', { date: day(6), hours: [{ opens: '8pm', closes: '23:00' }] }, 400, 'hours.0.opens'],
        ['closes before it opens', { date: day(6), hours: [{ opens: '20:00', closes: '19:00' }] }, 400, 'hours.0.closes'],
        ['opens past midnight', { date: day(6), hours: [{ opens: '25:00', closes: '27:00' }] }, 400, 'hours.0.opens'],
        [
          'overlapping',
          {
            date: day(6),
            hours: [
              { opens: '11:00', closes: '15:00' },
              { opens: '14:00', closes: '22:00' },
            ],
          },
          400,
          'hours',
        ],
        ['missing hours', { date: day(6) }, 400, 'hours'],
        ['another store', { store_id: s.fx.tinyStoreId, date: day(6), hours: [] }, 404, ''],
      ];
      for (const [what, body, status, field] of cases) {
        const res = await setDay(body);
        const error = ((await res.json()) as Json).error;
        expect([what, res.status]).toEqual([what, status]);
        if (field) expect([what, Object.keys(error.fields ?? {})]).toEqual([what, [field]]);
      }
      expect(await list()).toEqual(before);
      expect((await list(s.tokenB, s.fx.tinyStoreId)).length).toBe(0);
      // The last bookable day is fine.
      expect(
        (
          await setDay({
            date: day(13),
            hours: [
              { opens: '12:00', closes: '14:00' },
              { opens: '18:00', closes: '22:00' },
            ],
          })
        ).status,
      ).toBe(200);
    });
  });
}

describe('a closure reaches another instance’s stream and listing', () => {
  const s = twoInstances();

  it('closing the 24-hour bar today and tomorrow takes it off B’s stream and list at once; removing gives it back', async () => {
    const { a, b } = s;
    const token = (await staffLogin(a, s.fx.staffB)).token;
    const headers = { authorization: `Bearer ${token}` };
    const stream = await SseStream.open(b, `/api/availability/stream?stores=${s.fx.tinyStoreId}&party=2`);
    try {
      expect((await stream.snapshot([s.fx.tinyStoreId])).get(s.fx.tinyStoreId)!.free_tables).toBe(1);
      expect(await bookableNearby(b)).toContain(s.fx.tinyStoreId);
      // B has read the bar's details (and keeps them in memory: storeDetails.ts) before the change.
      const closures = async () =>
        (((await (await b.fetch(`/api/stores/${s.fx.tinyStoreId}`)).json()) as Json).closures as Json[]).map((c) => c.date as string);
      expect(await closures()).toEqual([]);
      // Today's business day and the next: whatever the hour, the next hour is closed.
      const today = businessDate(new Date());
      const ids: number[] = [];
      for (const date of [today, addTokyoDays(today, 1)]) {
        const res = await a.fetch('/api/store/closures', { method: 'PUT', headers, json: { date, hours: [] } });
        expect(res.status).toBe(200);
        ids.push(z.parse(closureChangeSchema, await res.json()).closure!.id);
      }
      await stream.until(() => stream.latest().get(s.fx.tinyStoreId)?.free_tables === 0, 'the closed bar');
      expect(stream.latest().get(s.fx.tinyStoreId)).toMatchObject({ free_tables: 0, next_slots: [] });
      expect(await bookableNearby(b)).not.toContain(s.fx.tinyStoreId);
      // B's store details heard the change too: its page and API show the days closed.
      expect(await closures()).toEqual(expect.arrayContaining([today, addTokyoDays(today, 1)]));
      expect(await (await b.fetch(`/store/${s.fx.tinyStoreId}`)).text()).toContain(`data-closure-date="${addTokyoDays(today, 1)}"`);
      for (const id of ids) expect((await a.fetch(`/api/store/closures/${id}`, { method: 'DELETE', headers })).status).toBe(200);
      await stream.until(() => stream.latest().get(s.fx.tinyStoreId)?.free_tables === 1, 'the bar open again');
      expect(await bookableNearby(b)).toContain(s.fx.tinyStoreId);
      expect(await closures()).toEqual([]);
    } finally {
      stream.close();
    }
  });
});
