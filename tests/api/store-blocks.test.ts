/**
 * Blocks and marks on both engines: a block takes its table off the bookable-now list at once and
 * gives it back when released; blocks and bookings never share a table (one exclusion constraint,
 * a race for the last table has exactly one winner); bad blocks are refused with the field named
 * and nothing written; arrived, no-show and a store's cancellation (mailed in the diner's language).
 * On PostgreSQL, a block made through one instance reaches a stream served by another.
 * The servers' clock starts at 19:00 tomorrow (SUGU_CLOCK), so the tiny store has hours of its
 * business day left whatever the hour the tests run at; the other days are further ahead.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb } from '../helpers/app';
import { tokyoStart } from './booking-fixtures';
import { bearer, staffServer, twoInstances, bookableNearby, staffLogin } from './store-fixtures';
import { SseStream } from './live-sse';
import { blockJsonSchema, blockListSchema, storeBookingSchema, storeTablesSchema } from '../../src/lib/contract/staff';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';
import { businessDayRange } from '../../src/server/availability/rules';

type Json = Record<string, any>;
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };
const STEP = 15 * 60_000;
// Tomorrow at 19:00 Tokyo: the servers' clock starts there and runs on.
const clockAt = tokyoInstant(addTokyoDays(businessDate(new Date()), 1), 19 * 60);
const clock = { SUGU_CLOCK: clockAt.toISOString() };
/** The 15-minute mark just past by the servers' clock, as staff start a walk-in's block: the clock starts on a mark, and a describe's tests are over long before the next. */
const markNow = () => clockAt;
const iso = (d: Date) => toTokyoIso(d);

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`store blocks and marks [${engine}]`, () => {
    const s = staffServer(engine, clock);
    let tinyTable: number;
    let bigTables: number[];
    beforeAll(async () => {
      tinyTable = z.parse(storeTablesSchema, await (await s.app.fetch('/api/store/tables', { headers: bearer(s.tokenB) })).json()).items[0]!.id;
      bigTables = z.parse(storeTablesSchema, await (await s.app.fetch('/api/store/tables', { headers: bearer(s.tokenA) })).json()).items.map((t) => t.id);
    });

    const block = (token: string, body: Json) => s.app.fetch('/api/store/blocks', { method: 'POST', headers: bearer(token), json: body });
    const bookableNow = () => bookableNearby(s.app);
    const blockCount = async (token: string, date: string, storeId?: number) =>
      z.parse(
        blockListSchema,
        await (await s.app.fetch(`/api/store/blocks?date=${date}${storeId ? `&store_id=${storeId}` : ''}`, { headers: bearer(token) })).json(),
      ).items.length;

    it('a block takes the store off the bookable-now list at once; releasing it brings it back', async () => {
      expect(await bookableNow()).toContain(s.fx.tinyStoreId);
      const start = markNow();
      const res = await block(s.tokenB, { table_id: tinyTable, start: iso(start), end: iso(new Date(start.getTime() + 4 * 3600_000)), reason: 'ウォークイン' });
      expect(res.status).toBe(201);
      const held = z.parse(blockJsonSchema, await res.json());
      expect(held).toMatchObject({ store_id: s.fx.tinyStoreId, table: { id: tinyTable }, reason: 'ウォークイン', released_at: null });
      expect(res.headers.get('location')).toBe(`/api/store/blocks/${held.id}`);
      expect(await bookableNow()).not.toContain(s.fx.tinyStoreId);
      // Diners cannot book into it either.
      const refused = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: s.fx.tinyStoreId, start: iso(new Date(start.getTime() + STEP)), party_size: 2 },
      });
      expect(refused.status).toBe(409);
      const listed = z.parse(blockListSchema, await (await s.app.fetch('/api/store/blocks', { headers: bearer(s.tokenB) })).json());
      expect(listed.items.map((b) => b.id)).toContain(held.id);

      expect((await s.app.fetch(`/api/store/blocks/${held.id}`, { method: 'DELETE', headers: bearer(s.tokenA) })).status).toBe(404);
      expect((await s.app.fetch(`/api/store/blocks/${held.id}`, { method: 'DELETE', headers: bearer(s.tokenB) })).status).toBe(204);
      expect(await bookableNow()).toContain(s.fx.tinyStoreId);
      // Releasing twice is harmless; the list keeps it, released.
      expect((await s.app.fetch(`/api/store/blocks/${held.id}`, { method: 'DELETE', headers: bearer(s.tokenB) })).status).toBe(204);
      const after = z.parse(blockListSchema, await (await s.app.fetch('/api/store/blocks', { headers: bearer(s.tokenB) })).json());
      expect(after.items.find((b) => b.id === held.id)!.released_at).not.toBeNull();
    });

    it('a table held for the rest of the business day makes the store page offer to watch it (空席通知), until it is released', async () => {
      const start = markNow();
      const res = await block(s.tokenB, { table_id: tinyTable, start: iso(start), end: iso(businessDayRange(businessDate(start)).end), reason: '貸切' });
      expect(res.status).toBe(201);
      const held = z.parse(blockJsonSchema, await res.json());
      const page = () => s.app.fetch(`/store/${s.fx.tinyStoreId}?party=2`).then((r) => r.text());
      const full = await page();
      const offer = full.match(/<form[^>]*data-watch-ask[^>]*>[\s\S]*?<\/form>/)?.[0];
      expect(offer).toBeDefined();
      expect(offer).toContain(`name="store_id" value="${s.fx.tinyStoreId}"`);
      expect(offer).toContain('name="party_size" value="2"');
      expect((await s.app.fetch(`/api/store/blocks/${held.id}`, { method: 'DELETE', headers: bearer(s.tokenB) })).status).toBe(204);
      expect(await page()).not.toContain('data-watch-ask');
    });

    it('never lets a block and a booking share a table, whichever comes first', async () => {
      const booked = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: s.fx.tinyStoreId, start: tokyoStart(5, 19), party_size: 2 },
      });
      expect(booked.status).toBe(201);
      const over = await block(s.tokenB, { table_id: tinyTable, start: tokyoStart(5, 20), end: tokyoStart(5, 22) });
      expect(over.status).toBe(409);
      expect(((await over.json()) as Json).error).toMatchObject({ code: 'table_held', fields: { table_id: expect.any(String) } });
      expect((await block(s.tokenB, { table_id: tinyTable, start: tokyoStart(5, 21), end: tokyoStart(5, 23) })).status).toBe(201);
      const later = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: s.fx.tinyStoreId, start: tokyoStart(5, 21, 30), party_size: 2 },
      });
      expect(later.status).toBe(409);
      const twice = await block(s.tokenB, { table_id: tinyTable, start: tokyoStart(5, 22), end: tokyoStart(5, 23, 30) });
      expect(((await twice.json()) as Json).error.code).toBe('table_held');
    });

    it('a booking and a block racing for the last table: exactly one wins', async () => {
      for (const hour of [9, 12, 15]) {
        const start = tokyoStart(6, hour);
        const [b, k] = await Promise.all([
          s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.tinyStoreId, start, party_size: 2 } }),
          block(s.tokenB, { table_id: tinyTable, start, end: tokyoStart(6, hour + 2) }),
        ]);
        const statuses = [b.status, k.status].sort();
        expect([hour, statuses.filter((code) => code === 201).length]).toEqual([hour, 1]);
        expect([hour, statuses.filter((code) => code === 409).length]).toEqual([hour, 1]);
      }
    });

    it('refuses bad blocks with the field named, and writes nothing', async () => {
      const day = addTokyoDays(businessDate(new Date()), 7);
      const before = (await blockCount(s.tokenA, day)) + (await blockCount(s.tokenA, day, s.fx.eveningStoreId));
      const t = bigTables[0]!;
      const cases: Array<[string, string, Json, number, string]> = [
        ['end before start', s.tokenA, { table_id: t, start: tokyoStart(7, 20), end: tokyoStart(7, 19) }, 400, 'end'],
        ['longer than a day', s.tokenA, { table_id: t, start: tokyoStart(7, 10), end: tokyoStart(8, 11) }, 400, 'end'],
        [
          'in the past',
          s.tokenA,
          { table_id: t, start: iso(new Date(clockAt.getTime() - 3 * 3600_000)), end: iso(new Date(clockAt.getTime() - 3600_000)) },
          400,
          'start',
        ],
        ['malformed start', s.tokenA, { table_id: t, start: '明日の7時', end: tokyoStart(7, 19) }, 400, 'start'],
        ['no offset', s.tokenA, { table_id: t, start: '2026-12-01T19:00:00', end: tokyoStart(7, 19) }, 400, 'start'],
        ['missing table', s.tokenA, { start: tokyoStart(7, 18), end: tokyoStart(7, 19) }, 400, 'table_id'],
        ['unknown table', s.tokenA, { table_id: 99_999_999, start: tokyoStart(7, 18), end: tokyoStart(7, 19) }, 404, 'table_id'],
        ['another store’s table', s.tokenA, { table_id: tinyTable, start: tokyoStart(7, 18), end: tokyoStart(7, 19) }, 404, 'table_id'],
        ['another store', s.tokenA, { store_id: s.fx.tinyStoreId, table_id: tinyTable, start: tokyoStart(7, 18), end: tokyoStart(7, 19) }, 404, ''],
        ['negative table id', s.tokenA, { store_id: s.fx.eveningStoreId, table_id: -1, start: tokyoStart(7, 10), end: tokyoStart(7, 11) }, 400, 'table_id'],
      ];
      const evening = z.parse(
        storeTablesSchema,
        await (await s.app.fetch(`/api/store/tables?store_id=${s.fx.eveningStoreId}`, { headers: bearer(s.tokenA) })).json(),
      ).items[0]!.id;
      cases.push([
        'outside hours',
        s.tokenA,
        { store_id: s.fx.eveningStoreId, table_id: evening, start: tokyoStart(7, 10), end: tokyoStart(7, 11) },
        400,
        'start',
      ]);
      cases.push([
        'past closing',
        s.tokenA,
        { store_id: s.fx.eveningStoreId, table_id: evening, start: tokyoStart(7, 22), end: tokyoStart(7, 23, 30) },
        400,
        'start',
      ]);
      for (const [what, token, body, status, field] of cases) {
        const res = await block(token, body);
        const error = ((await res.json()) as Json).error;
        expect([what, res.status]).toEqual([what, status]);
        if (field) expect([what, Object.keys(error.fields ?? {})]).toEqual([what, [field]]);
      }
      // Within the evening store's hours it is fine.
      expect((await blockCount(s.tokenA, day)) + (await blockCount(s.tokenA, day, s.fx.eveningStoreId))).toBe(before);
      expect((await block(s.tokenA, { store_id: s.fx.eveningStoreId, table_id: evening, start: tokyoStart(7, 18), end: tokyoStart(7, 20) })).status).toBe(201);
      expect(await blockCount(s.tokenA, day, s.fx.eveningStoreId)).toBe(before + 1);
    });

    it('sets weekly hours, lists the bookings to come now outside them without cancelling any, and refuses bad hours', async () => {
      const hours = (body: Json) =>
        s.app.fetch('/api/store/hours', { method: 'PUT', headers: bearer(s.tokenA), json: { store_id: s.fx.eveningStoreId, ...body } });
      const booked = (await (
        await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.eveningStoreId, start: tokyoStart(9, 20), party_size: 2 } })
      ).json()) as Json;
      expect(Number.isInteger(booked.id)).toBe(true);
      for (const [what, body, field] of [
        ['closes before it opens', { hours: [{ weekday: 1, opens: '18:00', closes: '17:00' }] }, 'hours.0.closes'],
        ['malformed time', { hours: [{ weekday: 1, opens: '6pm', closes: '23:00' }] }, 'hours.0.opens'],
        ['no such weekday', { hours: [{ weekday: 7, opens: '17:00', closes: '23:00' }] }, 'hours.0.weekday'],
        [
          'overlapping',
          {
            hours: [
              { weekday: 1, opens: '17:00', closes: '22:00' },
              { weekday: 1, opens: '21:00', closes: '23:00' },
            ],
          },
          'hours',
        ],
      ] as const) {
        const res = await hours(body);
        expect([what, res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([what, 400, [field]]);
      }
      // The store's details as diners read them (kept in memory: storeDetails.ts), before the change.
      const detail = async () => (await (await s.app.fetch(`/api/stores/${s.fx.eveningStoreId}`)).json()) as Json;
      expect((await detail()).hours[0]).toEqual({ weekday: 0, opens_min: 17 * 60, closes_min: 23 * 60 });
      // Unchanged by the refusals.
      const before = (await (await s.app.fetch(`/api/store/hours?store_id=${s.fx.eveningStoreId}`, { headers: bearer(s.tokenA) })).json()) as Json;
      expect(before.hours).toHaveLength(7);
      expect(before.hours[0]).toEqual({ weekday: 0, opens: '17:00', closes: '23:00' });
      // Closing at 19:00 every day: the 20:00 booking is listed, and still confirmed.
      const res = await hours({ hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens: '11:00', closes: '19:00' })) });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as Json;
      expect(answer.hours[3]).toEqual({ weekday: 3, opens: '11:00', closes: '19:00' });
      expect(answer.outside_hours.map((b: Json) => b.id)).toContain(booked.id);
      const day = (await (
        await s.app.fetch(`/api/store/bookings?store_id=${s.fx.eveningStoreId}&date=${addTokyoDays(businessDate(new Date()), 9)}`, {
          headers: bearer(s.tokenA),
        })
      ).json()) as Json;
      expect(day.items.find((b: Json) => b.id === booked.id).status).toBe('confirmed');
      // The store's details and page show the new hours at once, not the ones read before.
      expect((await detail()).hours.map((h: Json) => [h.opens_min, h.closes_min])).toEqual(Array(7).fill([11 * 60, 19 * 60]));
      expect(await (await s.app.fetch(`/store/${s.fx.eveningStoreId}`, { headers: { 'accept-language': 'ja' } })).text()).toContain('11:00〜19:00');
      // The new hours are the diners' at once: a 20:00 start is closed now, 12:00 is bookable.
      const late = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: s.fx.eveningStoreId, start: tokyoStart(10, 20), party_size: 2 },
      });
      expect(late.status).toBe(400);
      const noon = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: s.fx.eveningStoreId, start: tokyoStart(10, 12), party_size: 2 },
      });
      expect(noon.status).toBe(201);
      // Back to the evening hours for the other tests.
      expect((await hours({ hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens: '17:00', closes: '23:00' })) })).status).toBe(200);
    });

    it('marks arrived and no-show, and a store’s cancellation frees the table and mails the diner in their language', async () => {
      const made = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: { 'accept-language': 'en' },
        json: { ...guest, email: 'traveller@example.jp', store_id: s.fx.storeId, start: tokyoStart(8, 19), party_size: 4 },
      });
      const booking = (await made.json()) as Json;
      const mark = (body: Json, token = s.tokenA) => s.app.fetch(`/api/store/bookings/${booking.id}`, { method: 'PATCH', headers: bearer(token), json: body });
      let res = await mark({ mark: 'no_show' });
      expect([res.status, ((await res.json()) as Json).error.code]).toEqual([409, 'not_changeable']);
      res = await mark({ mark: 'arrived' });
      expect(res.status).toBe(200);
      expect(z.parse(storeBookingSchema, await res.json())).toMatchObject({ id: booking.id, attendance: 'arrived', status: 'confirmed' });
      res = await mark({ mark: 'cancelled' });
      expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, ['reason']]);
      res = await mark({ mark: 'gone' });
      expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, ['mark']]);
      res = await mark({ mark: 'cancelled', reason: '設備故障のため' }, s.tokenB);
      expect(res.status).toBe(404);
      res = await mark({ mark: 'cancelled', reason: '設備故障のため' });
      expect(res.status).toBe(200);
      expect(z.parse(storeBookingSchema, await res.json())).toMatchObject({ status: 'cancelled', store_cancel_reason: '設備故障のため' });
      res = await mark({ mark: 'cancelled', reason: 'again' });
      expect(res.status).toBe(409);
      // The diner sees it cancelled.
      await s.app.waitForOutput(/"msg":"mail_queued"[^\n]*"kind":"booking_store_cancelled"/, 'the cancellation mail');
      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const [mail] = await h.sql<
            { subject: string; body_text: string }[]
          >`select subject, body_text from mail_outbox where kind = 'booking_store_cancelled' and to_address = 'traveller@example.jp'`;
          expect(mail!.subject).toContain('cancelled by the restaurant');
          expect(mail!.body_text).toContain('設備故障のため');
          const audit = await h.sql`select action from staff_audit where target_id = ${booking.id} order by id`;
          expect(audit.map((r) => r.action)).toEqual(['booking_arrived', 'booking_cancelled']);
        } finally {
          await h.close();
        }
      }
    });
  });
}

describe('a block reaches another instance’s live stream', () => {
  const s = twoInstances(clock);

  it('a block made through instance A shows on a stream served by instance B, and its release too', async () => {
    const { a, b } = s;
    const token = (await staffLogin(a, s.fx.staffB)).token;
    const table = z.parse(storeTablesSchema, await (await a.fetch('/api/store/tables', { headers: { authorization: `Bearer ${token}` } })).json()).items[0]!.id;
    const stream = await SseStream.open(b, `/api/availability/stream?stores=${s.fx.tinyStoreId}&party=2`);
    try {
      const before = (await stream.snapshot([s.fx.tinyStoreId])).get(s.fx.tinyStoreId)!;
      expect(before.free_tables).toBe(1);
      const start = markNow();
      const res = await a.fetch('/api/store/blocks', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        json: { table_id: table, start: iso(start), end: iso(new Date(start.getTime() + 4 * 3600_000)) },
      });
      expect(res.status).toBe(201);
      const held = await stream.nth(s.fx.tinyStoreId, 2);
      expect(held).toMatchObject({ free_tables: 0, next_slots: [] });
      expect(
        (await a.fetch(`/api/store/blocks/${((await res.json()) as Json).id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(204);
      expect((await stream.nth(s.fx.tinyStoreId, 3)).free_tables).toBe(1);
    } finally {
      stream.close();
    }
  });
});
