/**
 * The one fee rule (src/lib/contract/fee.ts) on the store's side, both engines, the server's clock
 * at 17:26 tomorrow: a guest booking inside its fee window cannot be moved away by the diner (409
 * change_needs_store), but the store may move it (the store agreeing is what the rule asks for).
 * The store's change leaves the diner's fee where it stood: a fee already due stays due (moved a
 * week later, cancelled, it is on the store's list of fees), and a booking moved by the store into
 * the window, or made larger, owes nothing more than before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { App } from '../helpers/app';
import * as z from 'zod/mini';
import { bearer, staffLogin, startWithStaff } from './store-fixtures';
import { storeFeeListSchema } from '../../src/lib/contract/staff';
import { stores } from '../../src/server/db/schema';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';

type Json = Record<string, any>;
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 17 * 60 + 26);
const at = (d: string, hh: number, mm = 0) => toTokyoIso(tokyoInstant(d, hh * 60 + mm));
let guests = 0;
const guest = () => ({ name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-3456-${String(7100 + ++guests)}`, email: `store-move-${guests}@example.jp` });

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`a due booking moved by the store [${engine}]`, () => {
    let app: App;
    let token: string;
    let storeId: number;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const started = await startWithStaff(engine, { SUGU_CLOCK: clockAt.toISOString() }, async (db, fx) => {
        await db.update(stores).set({ cancelFreeHours: 2, cancelFeeYen: 2000 }).where(eq(stores.id, fx.storeId));
      });
      ({ app, cleanup } = started);
      token = (await staffLogin(app, started.fx.staffA)).token;
      storeId = started.fx.storeId;
    });
    afterAll(() => cleanup?.());

    it('the diner is refused the move online; the store makes it', async () => {
      const made = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: { 'accept-language': 'ja' },
        json: {
          name: '山田 花子',
          name_kana: 'ヤマダ ハナコ',
          phone: '090-3456-7001',
          email: 'store-move@example.jp',
          store_id: storeId,
          start: at(day, 18, 30),
          party_size: 2,
        },
      });
      expect(made.status).toBe(201);
      const booking = (await made.json()) as Json;
      expect(booking.cancellation_fee.applies).toBe('due');
      const later = at(addTokyoDays(day, 7), 18, 30);

      const byDiner = await app.fetch(`/api/guest-bookings/${booking.id}`, {
        method: 'PATCH',
        headers: { 'x-booking-token': booking.edit_token, 'accept-language': 'ja' },
        json: { start: later },
      });
      expect([byDiner.status, ((await byDiner.json()) as Json).error.code]).toEqual([409, 'change_needs_store']);

      const byStore = await app.fetch(`/api/store/bookings/${booking.id}`, { method: 'PATCH', headers: bearer(token), json: { start: later, party_size: 1 } });
      expect(byStore.status).toBe(200);
      expect(Date.parse(((await byStore.json()) as Json).start)).toBe(Date.parse(later));

      // Not a way around the fee: still due, for the two it was due for; cancelled, it is owed.
      const guestHeaders = { 'x-booking-token': booking.edit_token, 'accept-language': 'ja' };
      const seen = (await (await app.fetch(`/api/guest-bookings/${booking.id}`, { headers: guestHeaders })).json()) as Json;
      expect([seen.party_size, seen.cancellation_fee.applies, seen.cancellation_fee.total]).toEqual([1, 'due', 4000]);
      const cancelled = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: guestHeaders });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as Json).cancellation_fee).toMatchObject({ applies: 'due', total: 4000 });
      const fees = z.parse(
        storeFeeListSchema,
        await (await app.fetch(`/api/store/fees?month=${later.slice(0, 7)}&store_id=${storeId}`, { headers: bearer(token) })).json(),
      );
      expect(fees.items.find((i) => i.booking.id === booking.id)?.fee).toMatchObject({ reason: 'late_cancellation', total: 4000 });
    });

    it('a booking the store moves into the window, or makes larger, owes nothing more than before', async () => {
      const made = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: { 'accept-language': 'ja' },
        json: { ...guest(), store_id: storeId, start: at(addTokyoDays(day, 3), 19), party_size: 2 },
      });
      expect(made.status).toBe(201);
      const booking = (await made.json()) as Json;
      expect(booking.cancellation_fee.applies).toBe('free');
      const freeUntil = booking.cancellation_fee.free_until;

      // The store needs it tonight, inside the window, and for four.
      const moved = await app.fetch(`/api/store/bookings/${booking.id}`, {
        method: 'PATCH',
        headers: bearer(token),
        json: { start: at(day, 19), party_size: 4 },
      });
      expect(moved.status).toBe(200);
      const guestHeaders = { 'x-booking-token': booking.edit_token, 'accept-language': 'ja' };
      const seen = (await (await app.fetch(`/api/guest-bookings/${booking.id}`, { headers: guestHeaders })).json()) as Json;
      expect([Date.parse(seen.start), seen.party_size]).toEqual([Date.parse(at(day, 19)), 4]);
      // Free to cancel until the deadline the diner had, and never for more than the two they booked.
      expect(seen.cancellation_fee).toMatchObject({ applies: 'free', free_until: freeUntil, total: 4000 });
      const cancelled = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: guestHeaders });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as Json).cancellation_fee.applies).toBe('free');
      const fees = z.parse(
        storeFeeListSchema,
        await (await app.fetch(`/api/store/fees?month=${day.slice(0, 7)}&store_id=${storeId}`, { headers: bearer(token) })).json(),
      );
      expect(fees.items.find((i) => i.booking.id === booking.id)).toBeUndefined();
    });

    it('the diner’s own change afterwards is theirs again: the fee counts from what they then hold', async () => {
      const made = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: { 'accept-language': 'ja' },
        json: { ...guest(), store_id: storeId, start: at(addTokyoDays(day, 3), 19), party_size: 2 },
      });
      const booking = (await made.json()) as Json;
      expect(
        (await app.fetch(`/api/store/bookings/${booking.id}`, { method: 'PATCH', headers: bearer(token), json: { start: at(addTokyoDays(day, 2), 19) } }))
          .status,
      ).toBe(200);
      const guestHeaders = { 'x-booking-token': booking.edit_token, 'accept-language': 'ja' };
      // The diner moves it into tomorrow evening's window themselves: then cancelling costs the fee.
      const byDiner = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'PATCH', headers: guestHeaders, json: { start: at(day, 19) } });
      expect(byDiner.status).toBe(200);
      expect(((await byDiner.json()) as Json).cancellation_fee).toMatchObject({ applies: 'due', total: 4000 });
    });
  });
}
