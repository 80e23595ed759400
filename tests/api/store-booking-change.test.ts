/**
 * A change the store makes to a diner's booking, on both engines: staff may move it to a table of
 * another kind than the diner's seat wish (a テーブル booking to the 個室), the table they name or
 * none; the diner's wish itself is kept.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { tokyoStart } from './booking-fixtures';
import { bearer, staffServer } from './store-fixtures';
import { storeBookingSchema, storeTablesSchema } from '../../src/lib/contract/staff';

type Json = Record<string, any>;
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-2345-6701', email: 'kind-move@example.jp' };

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`a store change across seat kinds [${engine}]`, () => {
    const s = staffServer(engine);
    const patch = (id: number, body: Json) => s.app.fetch(`/api/store/bookings/${id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: body });

    it('moves a booking that wished for a テーブル to the 個室, and keeps the wish', async () => {
      const made = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: s.fx.storeId, start: tokyoStart(4, 19), party_size: 2, seat_preference: 'table' },
      });
      expect(made.status).toBe(201);
      const booking = (await made.json()) as Json;
      const tables = z.parse(
        storeTablesSchema,
        await (await s.app.fetch(`/api/store/tables?store_id=${s.fx.storeId}`, { headers: bearer(s.tokenA) })).json(),
      ).items;
      const room = tables.find((x) => x.kind === 'private_room')!;
      const counter = tables.find((x) => x.kind === 'counter')!;
      expect(room).toBeDefined();

      const res = await patch(booking.id, { table_id: room.id });
      expect(res.status).toBe(200);
      const moved = z.parse(storeBookingSchema, await res.json());
      expect([moved.table.id, moved.table.kind, moved.seat_preference]).toEqual([room.id, 'private_room', 'table']);

      // With a new time too, to another kind again.
      const again = await patch(booking.id, { table_id: counter.id, start: tokyoStart(4, 20) });
      expect(again.status).toBe(200);
      const after = z.parse(storeBookingSchema, await again.json());
      expect([after.table.id, Date.parse(after.start)]).toEqual([counter.id, Date.parse(tokyoStart(4, 20))]);
    });
  });
}
