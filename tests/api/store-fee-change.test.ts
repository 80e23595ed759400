/**
 * The one fee rule (src/lib/contract/fee.ts) on the store's side, both engines, the server's clock
 * at 17:26 tomorrow: a guest booking inside its fee window cannot be moved away by the diner (409
 * change_needs_store), but the store may move it (the store agreeing is what the rule asks for),
 * and the store's own change is audited like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { App } from '../helpers/app';
import { bearer, staffLogin, startWithStaff } from './store-fixtures';
import { stores } from '../../src/server/db/schema';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';

type Json = Record<string, any>;
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 17 * 60 + 26);
const at = (d: string, hh: number, mm = 0) => toTokyoIso(tokyoInstant(d, hh * 60 + mm));

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
        json: { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-3456-7001', email: 'store-move@example.jp', store_id: storeId, start: at(day, 18, 30), party_size: 2 },
      });
      expect(made.status).toBe(201);
      const booking = (await made.json()) as Json;
      expect(booking.cancellation_fee.applies).toBe('due');
      const later = at(addTokyoDays(day, 7), 18, 30);

      const byDiner = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'PATCH', headers: { 'x-booking-token': booking.edit_token, 'accept-language': 'ja' }, json: { start: later } });
      expect([byDiner.status, ((await byDiner.json()) as Json).error.code]).toEqual([409, 'change_needs_store']);

      const byStore = await app.fetch(`/api/store/bookings/${booking.id}`, { method: 'PATCH', headers: bearer(token), json: { start: later } });
      expect(byStore.status).toBe(200);
      expect(Date.parse(((await byStore.json()) as Json).start)).toBe(Date.parse(later));
    });
  });
}
