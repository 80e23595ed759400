/**
 * The cancellation fee in the API's answers on both engines, with the server's clock set to 17:26
 * (SUGU_CLOCK): the day's starts say what booking each would cost, and a booking's answers (made,
 * read, cancelled) say what cancelling costs now, inside the store's window (¥2,000 per person
 * within 2 hours) and outside it (free until two hours before), in the reader's language; the
 * starts offered after a lost race carry theirs too, and a change is told its fee in words for a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { App } from '../helpers/app';
import { startWithFixture, type Fixture } from './booking-fixtures';
import { stores } from '../../src/server/db/schema';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';
import { bookingSchema, cancellationFeeSchema } from '../../src/lib/contract/responses';
import * as z from 'zod/mini';

type Json = Record<string, any>;
// Tomorrow at 17:26 in Tokyo: the fixture stores are open around the clock and have no bookings then.
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 17 * 60 + 26);
const at = (hh: number, mm = 0) => toTokyoIso(tokyoInstant(day, hh * 60 + mm));
let guests = 0;
const guest = () => ({ name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-3456-${String(1000 + ++guests)}`, email: `fee-${guests}@example.jp` });

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`cancellation fee in the API [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, { SUGU_CLOCK: clockAt.toISOString() }, async (db, f) => {
        await db.update(stores).set({ cancelFreeHours: 2, cancelFeeYen: 2000 }).where(eq(stores.id, f.storeId));
        return {};
      }));
    });
    afterAll(() => cleanup?.());

    const bookGuest = async (start: string, storeId = fx.storeId, party = 4) => {
      const res = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest(), store_id: storeId, start, party_size: party },
        headers: { 'accept-language': 'ja' },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as Json;
    };
    const asGuest = (b: Json, init: { method?: string; lang?: string } = {}) =>
      app.fetch(`/api/guest-bookings/${b.id}`, {
        method: init.method ?? 'GET',
        headers: { 'x-booking-token': b.edit_token, 'accept-language': init.lang ?? 'ja' },
      });

    it('gives each start of the day the fee booking it now would carry', async () => {
      const res = await app.fetch(`/api/stores/${fx.storeId}/availability?date=${day}&party=4`, { headers: { 'accept-language': 'ja' } });
      const slots = ((await res.json()) as Json).slots as Json[];
      const fee = (start: string) => slots.find((s) => Date.parse(s.start) === Date.parse(start))?.cancellation_fee;
      // 18:00 is inside the two hours already; 20:00 is free until 18:00.
      expect(fee(at(18))).toEqual({
        applies: 'due',
        free_until: null,
        per_person: 2000,
        total: 8000,
        message: 'このお時間はすでにキャンセル料の対象です。予約後にキャンセルすると、お一人様¥2,000（合計¥8,000）がかかります。',
      });
      expect(fee(at(20))).toMatchObject({ applies: 'free', free_until: at(18), per_person: 2000, total: 8000 });
      expect(fee(at(20)).message).toMatch(/^\d+月\d+日\(.\) 18:00までは無料でキャンセルできます。/);
      for (const s of slots) expect(z.safeParse(cancellationFeeSchema, s.cancellation_fee).success).toBe(true);
    });

    it('inside the window: made, read and cancelled, each answer says what cancelling costs', async () => {
      const made = await bookGuest(at(18));
      expect(made.cancellation_fee).toMatchObject({
        applies: 'due',
        per_person: 2000,
        total: 8000,
        message: '今キャンセルすると、お一人様¥2,000（合計¥8,000）のキャンセル料がかかります。',
      });
      const read = (await (await asGuest(made, { lang: 'en' })).json()) as Json;
      expect(z.safeParse(bookingSchema, read).success).toBe(true);
      expect(read.cancellation_fee.message).toBe('Cancelling now costs ¥2,000 per person (¥8,000 in total).');
      const cancelled = (await (await asGuest(made, { method: 'DELETE' })).json()) as Json;
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.cancellation_fee).toMatchObject({
        applies: 'due',
        total: 8000,
        message: 'このキャンセルには、お一人様¥2,000（合計¥8,000）のキャンセル料がかかります。',
      });
    });

    it('outside the window: free until two hours before, and a cancellation then costs nothing', async () => {
      const made = await bookGuest(at(21));
      expect(made.cancellation_fee).toMatchObject({ applies: 'free', free_until: at(19), per_person: 2000, total: 8000 });
      const cancelled = (await (await asGuest(made, { method: 'DELETE' })).json()) as Json;
      expect(cancelled.cancellation_fee).toMatchObject({ applies: 'free', message: 'このキャンセルにキャンセル料はかかりません。' });
    });

    it('a signed-in diner’s booking says the same, and a store without a fee says none', async () => {
      const cookie = fx.users[0]!.cookie;
      const res = await app.fetch('/api/bookings', {
        method: 'POST',
        cookie,
        json: { store_id: fx.storeId, start: at(22), party_size: 2 },
        headers: { 'accept-language': 'ja' },
      });
      expect(res.status).toBe(201);
      const made = (await res.json()) as Json;
      expect(made.cancellation_fee).toMatchObject({ applies: 'free', free_until: at(20), per_person: 2000, total: 4000 });
      const read = (await (await app.fetch(`/api/bookings/${made.id}`, { cookie, headers: { 'accept-language': 'ja' } })).json()) as Json;
      expect(read.cancellation_fee).toEqual(made.cancellation_fee);
      // The other fixture store keeps the default policy: no fee.
      const tiny = await bookGuest(at(18), fx.tinyStoreId, 2);
      expect(tiny.cancellation_fee).toEqual({ applies: 'none', free_until: null, per_person: 0, total: 0, message: 'キャンセル料はかかりません。' });
    });

    /** The day's starts for a party of `party`, each start's fee by its instant, offered for booking or for a change. */
    const feesOfDay = async (party: number, offer: 'book' | 'change') => {
      const res = await app.fetch(`/api/stores/${fx.storeId}/availability?date=${day}&party=${party}&offer=${offer}`, { headers: { 'accept-language': 'ja' } });
      expect(res.status).toBe(200);
      return new Map((((await res.json()) as Json).slots as Json[]).map((s) => [Date.parse(s.start), s.cancellation_fee]));
    };

    it('a change is told the fee in words for a change: free until …, or charged from the moment it is changed', async () => {
      const change = await feesOfDay(4, 'change');
      expect(change.get(Date.parse(at(18)))).toEqual({
        applies: 'due',
        free_until: null,
        per_person: 2000,
        total: 8000,
        message: 'このお時間はすでにキャンセル料の対象です。変更後にキャンセルすると、お一人様¥2,000（合計¥8,000）がかかります。',
      });
      expect(change.get(Date.parse(at(20)))).toEqual((await feesOfDay(4, 'book')).get(Date.parse(at(20))));
      const bad = await app.fetch(`/api/stores/${fx.storeId}/availability?date=${day}&party=4&offer=later`, { headers: { 'accept-language': 'ja' } });
      expect(bad.status).toBe(400);
    });

    it('a lost race offers the next free starts, each with its fee as the day’s starts carry it, for a booking and for a change', async () => {
      // Only the private room seats five: a guest there at 19:45 takes the start.
      await bookGuest(at(19, 45), fx.storeId, 5);
      const cookie = fx.users[1]!.cookie;
      const headers = { 'accept-language': 'ja' };
      const lost = await app.fetch('/api/bookings', { method: 'POST', cookie, json: { store_id: fx.storeId, start: at(19, 45), party_size: 5 }, headers });
      expect(lost.status).toBe(409);
      const offered = ((await lost.json()) as Json).error.next_slots as Json[];
      expect(offered.length).toBeGreaterThan(0);
      const book = await feesOfDay(5, 'book');
      for (const s of offered) expect(s.cancellation_fee, s.start).toEqual(book.get(Date.parse(s.start)));
      expect(offered.every((s) => s.cancellation_fee.applies === 'free')).toBe(true);

      const own = await app.fetch('/api/bookings', { method: 'POST', cookie, json: { store_id: fx.storeId, start: at(23, 30), party_size: 5 }, headers });
      expect(own.status).toBe(201);
      const moved = await app.fetch(`/api/bookings/${((await own.json()) as Json).id}`, { method: 'PATCH', cookie, json: { start: at(19, 45) }, headers });
      expect(moved.status).toBe(409);
      const instead = ((await moved.json()) as Json).error.next_slots as Json[];
      const change = await feesOfDay(5, 'change');
      expect(instead.length).toBeGreaterThan(0);
      for (const s of instead) expect(s.cancellation_fee, s.start).toEqual(change.get(Date.parse(s.start)));
    });

    const weekLater = (hh: number, mm = 0) => toTokyoIso(tokyoInstant(addTokyoDays(day, 7), hh * 60 + mm));
    const patchGuest = (b: Json, json: Json) =>
      app.fetch(`/api/guest-bookings/${b.id}`, { method: 'PATCH', json, headers: { 'x-booking-token': b.edit_token, 'accept-language': 'ja' } });

    it('a guest booking inside the window cannot be moved away or made smaller online, so cancelling it still costs the fee', async () => {
      const made = await bookGuest(at(18, 30));
      expect(made.cancellation_fee.applies).toBe('due');
      for (const change of [{ start: weekLater(18, 30) }, { start: at(23, 45) }, { party_size: 2 }, { start: weekLater(18, 30), party_size: 1 }]) {
        const res = await patchGuest(made, change);
        expect(res.status, JSON.stringify(change)).toBe(409);
        const error = ((await res.json()) as Json).error;
        expect(error.code).toBe('change_needs_store');
        // The store's number is in the message, and given apart for a client's call button.
        expect(error.message).toContain('03-1234-5678');
        expect(error.phone).toBe('03-1234-5678');
      }
      // What does not give up the table stays the diner's to change.
      const noted = await patchGuest(made, { note: '窓際希望' });
      expect(noted.status).toBe(200);
      const read = (await (await asGuest(made)).json()) as Json;
      expect(read).toMatchObject({ start: at(18, 30), party_size: 4, note: '窓際希望' });
      const cancelled = (await (await asGuest(made, { method: 'DELETE' })).json()) as Json;
      expect(cancelled.cancellation_fee).toMatchObject({ applies: 'due', total: 8000 });
    });

    it('the PATCH-then-cancel dodge fails for a signed-in diner too; a change made while free may move, even into the window, which then holds it', async () => {
      const cookie = fx.users[1]!.cookie;
      const headers = { 'accept-language': 'ja' };
      const due = await app.fetch('/api/bookings', { method: 'POST', cookie, json: { store_id: fx.storeId, start: at(18, 45), party_size: 2 }, headers });
      expect(due.status).toBe(201);
      const dueId = ((await due.json()) as Json).id;
      const moved = await app.fetch(`/api/bookings/${dueId}`, { method: 'PATCH', cookie, json: { start: weekLater(18, 45) }, headers });
      expect(moved.status).toBe(409);
      expect(((await moved.json()) as Json).error.code).toBe('change_needs_store');
      const cancelled = (await (await app.fetch(`/api/bookings/${dueId}`, { method: 'DELETE', cookie, headers })).json()) as Json;
      expect(cancelled.cancellation_fee).toMatchObject({ applies: 'due', total: 4000 });

      // Free until 18:30: moving a week later is still free, as cancelling now would be.
      const free = await app.fetch('/api/bookings', { method: 'POST', cookie, json: { store_id: fx.storeId, start: at(20, 30), party_size: 2 }, headers });
      expect(free.status).toBe(201);
      const freeId = ((await free.json()) as Json).id;
      const later = await app.fetch(`/api/bookings/${freeId}`, { method: 'PATCH', cookie, json: { start: weekLater(20, 30) }, headers });
      expect(later.status).toBe(200);
      expect(((await later.json()) as Json).cancellation_fee.applies).toBe('free');
      // Moved into the window, it is due at once, and cannot be moved back out.
      const inside = await app.fetch(`/api/bookings/${freeId}`, { method: 'PATCH', cookie, json: { start: at(19) }, headers });
      expect(inside.status).toBe(200);
      expect(((await inside.json()) as Json).cancellation_fee).toMatchObject({ applies: 'due', total: 4000 });
      const back = await app.fetch(`/api/bookings/${freeId}`, { method: 'PATCH', cookie, json: { start: weekLater(20, 30) }, headers });
      expect(back.status).toBe(409);
      const bigger = await app.fetch(`/api/bookings/${freeId}`, { method: 'PATCH', cookie, json: { party_size: 3 }, headers });
      expect(bigger.status).toBe(200);
      expect(((await bigger.json()) as Json).cancellation_fee).toMatchObject({ applies: 'due', total: 6000 });
    });
  });
}
