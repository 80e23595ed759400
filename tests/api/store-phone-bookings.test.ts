/**
 * Bookings the store writes down (a phone call) and changes, on both engines: the online booking's
 * rules and lock (a phone booking and an online booking racing for the last table: exactly one
 * wins), the guest form's contact checks (kana, a phone number as typed, full-width digits), staff
 * may use walk-in-only tables; a change from the store by the diners' change rules (a taken table
 * is 409, another store's booking 404) mails the diner in their language; the audit keeps the
 * booking before and after; the role matrix.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb } from '../helpers/app';
import { tokyoStart } from './booking-fixtures';
import { bearer, staffServer } from './store-fixtures';
import { storeBookingSchema, storeTablesSchema } from '../../src/lib/contract/staff';

type Json = Record<string, any>;
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };
const caller = { name: '田中 一郎', name_kana: 'たなか いちろう', phone: '０３－１２３４－５６７８' };

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`phone bookings and store changes [${engine}]`, () => {
    const s = staffServer(engine);
    const phone = (token: string, body: Json, headers: Record<string, string> = bearer(token)) =>
      s.app.fetch('/api/store/bookings', { method: 'POST', headers, json: body });
    const patch = (token: string, id: number, body: Json) => s.app.fetch(`/api/store/bookings/${id}`, { method: 'PATCH', headers: bearer(token), json: body });
    const tables = async (token: string) => z.parse(storeTablesSchema, await (await s.app.fetch('/api/store/tables', { headers: bearer(token) })).json()).items;

    it('writes down a phone booking with the contact as people say it, by the online rules', async () => {
      const res = await phone(s.tokenA, { ...caller, start: tokyoStart(3, 19), party_size: 3, note: 'アレルギー：えび' });
      expect(res.status).toBe(201);
      const booked = z.parse(storeBookingSchema, await res.json());
      expect(booked).toMatchObject({
        store_id: s.fx.storeId,
        party_size: 3,
        status: 'confirmed',
        note: 'アレルギー：えび',
        contact: { name: '田中 一郎', name_kana: 'タナカ イチロウ', phone: '0312345678', email: '', guest: true },
      });
      expect(res.headers.get('location')).toBe(`/api/store/bookings/${booked.id}`);
      // On the day's list like any booking.
      const day = (await (await s.app.fetch(`/api/store/bookings?date=${booked.start.slice(0, 10)}`, { headers: bearer(s.tokenA) })).json()) as Json;
      expect(day.items.map((b: Json) => b.id)).toContain(booked.id);

      // The online rules: past, unaligned, closed, too big; the guest form's contact checks; each naming its field.
      for (const [what, body, status, field] of [
        ['past', { start: tokyoStart(-1, 19) }, 400, 'start'],
        ['unaligned', { start: tokyoStart(3, 19, 7) }, 400, 'start'],
        ['closed', { store_id: s.fx.eveningStoreId, start: tokyoStart(3, 12) }, 400, 'start'],
        ['too big', { party_size: 7 }, 400, 'party_size'],
        ['kana', { name_kana: 'Tanaka' }, 400, 'name_kana'],
        ['phone', { phone: '12345' }, 400, 'phone'],
        ['email', { email: 'not-an-address' }, 400, 'email'],
        ['no name', { name: '  ' }, 400, 'name'],
        ['another company’s store', { store_id: s.fx.tinyStoreId }, 404, null],
      ] as const) {
        const res = await phone(s.tokenA, { ...caller, start: tokyoStart(3, 20), party_size: 2, ...body });
        const error = ((await res.json()) as Json).error;
        expect([what, res.status]).toEqual([what, status]);
        if (field) expect([what, Object.keys(error.fields)]).toEqual([what, [field]]);
      }
    });

    it('lets staff use a walk-in-only table and name the table; mails the diner when there is an address', async () => {
      const room = (await tables(s.tokenA)).find((t) => t.max_party === 6)!;
      expect((await s.app.fetch(`/api/store/tables/${room.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { online: false } })).status).toBe(200);
      try {
        // No diner can book six now; the store can.
        const online = await s.app.fetch('/api/guest-bookings', {
          method: 'POST',
          json: { ...guest, store_id: s.fx.storeId, start: tokyoStart(4, 19), party_size: 6 },
        });
        expect(online.status).toBe(400);
        const res = await phone(s.tokenA, { ...caller, email: 'tanaka@example.jp', start: tokyoStart(4, 19), party_size: 6 });
        expect(res.status).toBe(201);
        expect(z.parse(storeBookingSchema, await res.json()).table.id).toBe(room.id);
        await s.app.waitForOutput(/"msg":"mail_queued"[^\n]*"kind":"booking_created"/, 'the confirmation mail');
        // Named and taken: 409.
        // Other callers (one caller may not hold two overlapping tables at a store).
        const taken = await phone(s.tokenA, { ...caller, phone: '03-1234-0001', start: tokyoStart(4, 20), party_size: 2, table_id: room.id });
        expect([taken.status, ((await taken.json()) as Json).error.code]).toEqual([409, 'slot_taken']);
        const small = (await tables(s.tokenA)).find((t) => t.max_party === 4)!;
        const tooBig = await phone(s.tokenA, { ...caller, phone: '03-1234-0002', start: tokyoStart(4, 21), party_size: 6, table_id: small.id });
        expect([tooBig.status, Object.keys(((await tooBig.json()) as Json).error.fields)]).toEqual([400, ['table_id']]);
        const named = await phone(s.tokenA, { ...caller, phone: '03-1234-0002', start: tokyoStart(4, 21), party_size: 2, table_id: small.id });
        expect(z.parse(storeBookingSchema, await named.json()).table.id).toBe(small.id);
      } finally {
        await s.app.fetch(`/api/store/tables/${room.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { online: true } });
      }
    });

    it('a phone booking and an online booking racing for the last table: exactly one wins', async () => {
      for (const hour of [10, 13, 16, 19]) {
        const start = tokyoStart(6, hour);
        const [online, call] = await Promise.all([
          s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.tinyStoreId, start, party_size: 2 } }),
          phone(s.tokenB, { ...caller, start, party_size: 2 }),
        ]);
        const statuses = [online.status, call.status];
        expect([hour, statuses.filter((c) => c === 201).length, statuses.filter((c) => c === 409).length]).toEqual([hour, 1, 1]);
      }
    });

    it('changes a booking from the store: time, party and table, refused on a taken table, the diner mailed in their language', async () => {
      const made = await s.app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: { 'accept-language': 'en' },
        json: { ...guest, email: 'visitor@example.jp', store_id: s.fx.storeId, start: tokyoStart(7, 18), party_size: 2 },
      });
      const booking = (await made.json()) as Json;
      const [t1, t2] = (await tables(s.tokenA)).filter((t) => t.max_party === 4);
      // Another party holds the other table at 20:00.
      const other = z.parse(storeBookingSchema, await (await phone(s.tokenA, { ...caller, start: tokyoStart(7, 20), party_size: 2, table_id: t2!.id })).json());
      expect(other.table.id).toBe(t2!.id);

      let res = await patch(s.tokenA, booking.id, { start: tokyoStart(7, 20), party_size: 4, table_id: t1!.id });
      expect(res.status).toBe(200);
      const moved = z.parse(storeBookingSchema, await res.json());
      expect(moved).toMatchObject({ id: booking.id, party_size: 4, table: { id: t1!.id }, status: 'confirmed' });
      expect(Date.parse(moved.start)).toBe(Date.parse(tokyoStart(7, 20)));
      await s.app.waitForOutput(/"msg":"mail_queued"[^\n]*"kind":"booking_changed"/, 'the change mail');

      // The other table is held then: 409, and nothing changes.
      res = await patch(s.tokenA, booking.id, { table_id: t2!.id });
      expect([res.status, ((await res.json()) as Json).error.code]).toEqual([409, 'slot_taken']);
      res = await patch(s.tokenB, booking.id, { party_size: 3 });
      expect(res.status).toBe(404);
      res = await patch(s.tokenA, booking.id, { mark: 'arrived', party_size: 3 });
      expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, ['mark']]);
      res = await patch(s.tokenA, booking.id, {});
      expect(res.status).toBe(400);
      const day = (await (await s.app.fetch(`/api/store/bookings?date=${moved.start.slice(0, 10)}`, { headers: bearer(s.tokenA) })).json()) as Json;
      expect(day.items.find((b: Json) => b.id === booking.id)).toMatchObject({ party_size: 4, table: { id: t1!.id } });

      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const [mail] = await h.sql<
            { subject: string }[]
          >`select subject from mail_outbox where kind = 'booking_changed' and to_address = 'visitor@example.jp'`;
          expect(mail!.subject).toMatch(/^\[Sugu\] Booking changed/);
          const rows = await h.sql<
            { action: string; before: Json; after: Json }[]
          >`select action, before, after from staff_audit where target_id in (${booking.id}, ${other.id}) order by id`;
          expect(rows.map((r) => r.action)).toEqual(['booking_create', 'booking_change']);
          expect(rows[0]!.before).toBeNull();
          expect(rows[0]!.after).toMatchObject({ table_id: t2!.id, party_size: 2 });
          expect(rows[1]!.before).toMatchObject({ party_size: 2, table_id: t1!.id, start: booking.start });
          expect(rows[1]!.after).toMatchObject({ party_size: 4, table_id: t1!.id, start: moved.start });
        } finally {
          await h.close();
        }
      }
    });

    it('answers 401 signed out and 403 to a diner', async () => {
      const body = { ...caller, start: tokyoStart(8, 19), party_size: 2 };
      expect((await s.app.fetch('/api/store/bookings', { method: 'POST', json: body })).status).toBe(401);
      expect((await phone('', body, { authorization: `Bearer ${s.fx.users[0]!.token}` })).status).toBe(403);
      expect((await s.app.fetch('/api/store/bookings/1', { method: 'PATCH', json: { party_size: 3 } })).status).toBe(401);
      expect(
        (await s.app.fetch('/api/store/bookings/1', { method: 'PATCH', headers: { authorization: `Bearer ${s.fx.users[0]!.token}` }, json: { party_size: 3 } }))
          .status,
      ).toBe(403);
    });
  });
}
