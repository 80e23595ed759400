/**
 * Walk-ins on both engines, with the server's clock at 22:00 tomorrow (SUGU_CLOCK), so the evening
 * store (17:00–23:00) closes within a party's turn: the suggested table (walk-in-only first, then
 * the smallest that fits), seating one takes its table off the diners' listing at once and "table
 * free again" gives it back; no fitting free table is 409; a stay is cut at closing; the role
 * matrix; the audit's before and after; and the store API's errors in Japanese unless another
 * language is asked for, while the diners' API keeps English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb, type App } from '../helpers/app';
import type { Fixture } from './booking-fixtures';
import { bearer, bookableNearby, startWithStaff, staffLogin, type StaffFixture } from './store-fixtures';
import { SseStream } from './live-sse';
import { storeTablesSchema, walkInJsonSchema, walkInListSchema, walkInSuggestionSchema } from '../../src/lib/contract/staff';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';

type Json = Record<string, any>;
const clockAt = tokyoInstant(addTokyoDays(businessDate(new Date()), 1), 22 * 60);
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`walk-ins [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let tokenA: string;
    let tokenB: string;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: clockAt.toISOString() }));
      tokenA = (await staffLogin(app, fx.staffA)).token;
      tokenB = (await staffLogin(app, fx.staffB)).token;
    });
    afterAll(() => cleanup?.());

    const seat = (token: string, body: Json, headers: Record<string, string> = bearer(token)) =>
      app.fetch('/api/store/walk-ins', { method: 'POST', headers, json: body });
    const free = (token: string, id: number) => app.fetch(`/api/store/walk-ins/${id}/free`, { method: 'POST', headers: bearer(token) });
    const suggest = async (token: string, query: string) =>
      z.parse(walkInSuggestionSchema, await (await app.fetch(`/api/store/walk-ins/suggest?${query}`, { headers: bearer(token) })).json());
    const tables = async (token: string, storeId?: number) =>
      z.parse(storeTablesSchema, await (await app.fetch(`/api/store/tables${storeId ? `?store_id=${storeId}` : ''}`, { headers: bearer(token) })).json()).items;

    it('seating a walk-in takes the table off the diners’ listing at once; “table free again” gives it back', async () => {
      const [tiny] = await tables(tokenB);
      expect(await bookableNearby(app)).toContain(fx.tinyStoreId);
      const suggestion = await suggest(tokenB, 'party_size=2');
      expect(suggestion).toMatchObject({ store_id: fx.tinyStoreId, party_size: 2, table: { id: tiny!.id, max_party: 2, online: true } });

      const res = await seat(tokenB, { party_size: 2, name: '佐藤' });
      expect(res.status).toBe(201);
      const walkIn = z.parse(walkInJsonSchema, await res.json());
      expect(walkIn).toMatchObject({ store_id: fx.tinyStoreId, table: { id: tiny!.id }, party_size: 2, name: '佐藤' });
      expect(res.headers.get('location')).toBe(`/api/store/walk-ins/${walkIn.id}`);
      // From the minute it was seated, for the store's turn time (120 minutes), to the next 15-minute mark.
      const start = Date.parse(walkIn.start);
      const end = Date.parse(walkIn.end);
      expect(start).toBeGreaterThanOrEqual(clockAt.getTime());
      expect(end % (15 * 60_000)).toBe(0);
      expect(end - start).toBeGreaterThanOrEqual(120 * 60_000);
      expect(end - start).toBeLessThan(135 * 60_000);

      expect(await bookableNearby(app)).not.toContain(fx.tinyStoreId);
      const next = new Date(Math.ceil(Date.parse(walkIn.start) / (15 * 60_000)) * 15 * 60_000 + 15 * 60_000);
      const refused = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: fx.tinyStoreId, start: toTokyoIso(next), party_size: 2 },
      });
      expect(refused.status).toBe(409);
      // Nothing else fits now: 409, in the staff's language; the suggestion says so before the tap.
      const full = await seat(tokenB, { party_size: 1 });
      expect([full.status, ((await full.json()) as Json).error.code]).toEqual([409, 'no_free_table']);
      expect((await suggest(tokenB, 'party_size=1')).table).toBeNull();
      const listed = z.parse(walkInListSchema, await (await app.fetch('/api/store/walk-ins', { headers: bearer(tokenB) })).json());
      expect(listed.items.map((w) => w.id)).toContain(walkIn.id);

      expect((await free(tokenA, walkIn.id)).status).toBe(404);
      const freed = await free(tokenB, walkIn.id);
      expect(freed.status).toBe(200);
      const after = z.parse(walkInJsonSchema, await freed.json());
      expect(Date.parse(after.end)).toBeLessThan(end);
      expect(await bookableNearby(app)).toContain(fx.tinyStoreId);
      const booked = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: fx.tinyStoreId, start: toTokyoIso(next), party_size: 2 },
      });
      expect(booked.status).toBe(201);
      // Freeing twice is harmless.
      expect((await free(tokenB, walkIn.id)).status).toBe(200);

      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql<
            { action: string; before: Json | null; after: Json | null }[]
          >`select action, before, after from staff_audit where target_id = ${walkIn.id} order by id`;
          expect(rows.map((r) => r.action)).toEqual(['walk_in_seat', 'walk_in_free']);
          expect(rows[0]!.before).toBeNull();
          expect(rows[0]!.after).toMatchObject({ table_id: tiny!.id, party_size: 2, name: '佐藤', end: walkIn.end });
          expect(rows[1]!.before).toMatchObject({ end: walkIn.end, status: 'confirmed' });
          expect(rows[1]!.after).toMatchObject({ end: after.end, status: 'confirmed' });
        } finally {
          await h.close();
        }
      }
    });

    it('sends each walk-in seated and freed to the door tablets’ store stream', async () => {
      const counter = (await tables(tokenA)).find((t) => t.kind === 'counter')!;
      const stream = await SseStream.open(app, '/api/store/stream', bearer(tokenA));
      try {
        const walkIns = () => stream.events.filter((e) => e.event === 'walk_in').map((e) => z.parse(walkInJsonSchema, JSON.parse(e.data)));
        const res = await seat(tokenA, { party_size: 1, table_id: counter.id });
        expect(res.status).toBe(201);
        const seated = z.parse(walkInJsonSchema, await res.json());
        expect(await stream.until(() => walkIns().find((w) => w.id === seated.id), 'the walk-in')).toMatchObject({ party_size: 1, end: seated.end });
        const freed = z.parse(walkInJsonSchema, await (await free(tokenA, seated.id)).json());
        expect(freed.end).not.toBe(seated.end);
        await stream.until(() => walkIns().find((w) => w.id === seated.id && w.end === freed.end), 'the table free again');
      } finally {
        stream.close();
      }
    });

    it('suggests a walk-in-only table first, then the smallest free one that fits; a table named must fit and be free', async () => {
      const all = await tables(tokenA);
      const big = all.find((t) => t.max_party === 6)!;
      const small = all.find((t) => t.max_party === 4)!;
      expect((await suggest(tokenA, 'party_size=2')).table!.max_party).toBe(4);
      // The private room for six made walk-in only: the door gets it first, even for two.
      expect((await app.fetch(`/api/store/tables/${big.id}`, { method: 'PATCH', headers: bearer(tokenA), json: { online: false } })).status).toBe(200);
      try {
        expect((await suggest(tokenA, 'party_size=2')).table).toMatchObject({ id: big.id, online: false });
        // Staff may seat six there though no diner can book six.
        const six = await seat(tokenA, { party_size: 6 });
        expect(six.status).toBe(201);
        const held = z.parse(walkInJsonSchema, await six.json());
        expect(held.table.id).toBe(big.id);
        const taken = await seat(tokenA, { party_size: 2, table_id: big.id });
        expect([taken.status, Object.keys(((await taken.json()) as Json).error.fields)]).toEqual([409, ['table_id']]);
        expect((await free(tokenA, held.id)).status).toBe(200);
      } finally {
        await app.fetch(`/api/store/tables/${big.id}`, { method: 'PATCH', headers: bearer(tokenA), json: { online: true } });
      }
      const tooSmall = await seat(tokenA, { party_size: 6, table_id: small.id });
      expect([tooSmall.status, Object.keys(((await tooSmall.json()) as Json).error.fields)]).toEqual([400, ['table_id']]);
      const [tiny] = await tables(tokenB);
      const foreign = await seat(tokenA, { party_size: 2, table_id: tiny!.id });
      expect([foreign.status, Object.keys(((await foreign.json()) as Json).error.fields)]).toEqual([404, ['table_id']]);
      const named = await seat(tokenA, { party_size: 3, table_id: small.id });
      expect(named.status).toBe(201);
      expect(z.parse(walkInJsonSchema, await named.json()).table.id).toBe(small.id);
    });

    it('cuts a walk-in’s stay at closing, and seats no one while the store is closed', async () => {
      const res = await seat(tokenA, { store_id: fx.eveningStoreId, party_size: 2 });
      expect(res.status).toBe(201);
      const walkIn = z.parse(walkInJsonSchema, await res.json());
      expect(walkIn.end).toBe(toTokyoIso(tokyoInstant(businessDate(clockAt), 23 * 60)));
      expect((await free(tokenA, walkIn.id)).status).toBe(200);
      // Closed tonight (臨時休業): nobody is seated.
      const closure = await app.fetch('/api/store/closures', {
        method: 'PUT',
        headers: bearer(tokenA),
        json: { store_id: fx.eveningStoreId, date: businessDate(clockAt), hours: [] },
      });
      expect(closure.status).toBe(200);
      const closed = await seat(tokenA, { store_id: fx.eveningStoreId, party_size: 2 });
      expect([closed.status, ((await closed.json()) as Json).error.code]).toEqual([409, 'no_free_table']);
      expect((await suggest(tokenA, `store_id=${fx.eveningStoreId}&party_size=2`)).table).toBeNull();
    });

    it('answers 401 signed out, 403 to a diner, 404 for another company’s store, 400 naming the field', async () => {
      const diner = { authorization: `Bearer ${fx.users[0]!.token}`, 'accept-language': 'en' };
      expect((await app.fetch('/api/store/walk-ins', { method: 'POST', json: { party_size: 2 } })).status).toBe(401);
      expect((await app.fetch('/api/store/walk-ins/suggest?party_size=2')).status).toBe(401);
      expect((await app.fetch('/api/store/walk-ins/1/free', { method: 'POST' })).status).toBe(401);
      expect((await seat('', { party_size: 2 }, diner)).status).toBe(403);
      expect((await app.fetch('/api/store/walk-ins/suggest?party_size=2', { headers: diner })).status).toBe(403);
      expect((await app.fetch('/api/store/walk-ins/1/free', { method: 'POST', headers: diner })).status).toBe(403);
      expect((await seat(tokenA, { store_id: fx.tinyStoreId, party_size: 2 })).status).toBe(404);
      expect((await app.fetch(`/api/store/walk-ins/suggest?store_id=${fx.tinyStoreId}&party_size=2`, { headers: bearer(tokenA) })).status).toBe(404);
      expect((await app.fetch(`/api/store/walk-ins?store_id=${fx.tinyStoreId}`, { headers: bearer(tokenA) })).status).toBe(404);
      for (const [body, field] of [
        [{ party_size: 0 }, 'party_size'],
        [{ party_size: 2, table_id: 'T1' }, 'table_id'],
        [{ party_size: 2, name: 'x'.repeat(51) }, 'name'],
      ] as const) {
        const res = await seat(tokenA, body);
        expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, [field]]);
      }
      const res = await app.fetch('/api/store/walk-ins/suggest?party_size=two', { headers: bearer(tokenA) });
      expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, ['party_size']]);
    });

    it('changes one weekday’s hours without touching the others (0 is Sunday)', async () => {
      const put = (weekday: string, body: Json, headers: Record<string, string> = bearer(tokenA)) =>
        app.fetch(`/api/store/hours/${weekday}`, { method: 'PUT', headers, json: { store_id: fx.eveningStoreId, ...body } });
      const week = async () =>
        ((await (await app.fetch(`/api/store/hours?store_id=${fx.eveningStoreId}`, { headers: bearer(tokenA) })).json()) as Json).hours as Json[];
      const before = await week();
      expect(before).toHaveLength(7);
      const res = await put('2', {
        hours: [
          { opens: '11:30', closes: '14:00' },
          { opens: '17:00', closes: '23:00' },
        ],
      });
      expect(res.status).toBe(200);
      const after = ((await res.json()) as Json).hours as Json[];
      expect(after.filter((h) => h.weekday !== 2)).toEqual(before.filter((h) => h.weekday !== 2));
      expect(after.filter((h) => h.weekday === 2)).toEqual([
        { weekday: 2, opens: '11:30', closes: '14:00' },
        { weekday: 2, opens: '17:00', closes: '23:00' },
      ]);
      // No weekday 7: the message says which number is Sunday, in the staff's language.
      const bad = await put('7', { hours: [] }, { authorization: `Bearer ${tokenA}` });
      const error = ((await bad.json()) as Json).error;
      expect([bad.status, Object.keys(error.fields)]).toEqual([400, ['weekday']]);
      expect(error.fields.weekday).toMatch(/0.*日曜.*6.*土曜/);
      const overlap = await put('2', {
        hours: [
          { opens: '11:00', closes: '15:00' },
          { opens: '14:00', closes: '23:00' },
        ],
      });
      expect([overlap.status, Object.keys(((await overlap.json()) as Json).error.fields)]).toEqual([400, ['hours']]);
      expect((await put('2', { hours: [{ opens: '17:00', closes: '23:00' }] })).status).toBe(200);
      expect(await week()).toEqual(before);
    });

    it('speaks Japanese to staff unless they ask for another language; the diners’ API keeps English', async () => {
      const token = { authorization: `Bearer ${tokenA}` };
      const ja = await app.fetch('/api/store/walk-ins', { method: 'POST', headers: token, json: { party_size: 0 } });
      const jaBody = (await ja.json()) as Json;
      expect(ja.status).toBe(400);
      expect(jaBody.error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
      expect(jaBody.error.fields.party_size).toMatch(/人数/);
      // A language Sugu does not have is no request for English.
      const other = (await (
        await app.fetch('/api/store/walk-ins', { method: 'POST', headers: { ...token, 'accept-language': 'sv-SE' }, json: { party_size: 0 } })
      ).json()) as Json;
      expect(other.error.message).toBe(jaBody.error.message);
      const en = (await (
        await app.fetch('/api/store/walk-ins', { method: 'POST', headers: { ...token, 'accept-language': 'en' }, json: { party_size: 0 } })
      ).json()) as Json;
      expect(en.error.message).not.toBe(jaBody.error.message);
      expect(en.error.message).toMatch(/^[\x20-\x7e]+$/);
      expect(((await (await app.fetch('/api/store/walk-ins', { method: 'POST', json: { party_size: 2 } })).json()) as Json).error.message).toMatch(
        /[ぁ-んァ-ン一-龥]/,
      );
      // The diners' API, asked in no language, answers in English as before.
      const diner = (await (await app.fetch('/api/guest-bookings', { method: 'POST', json: { party_size: 0 } })).json()) as Json;
      expect(diner.error.message).toMatch(/^[\x20-\x7e]+$/);
    });
  });
}
