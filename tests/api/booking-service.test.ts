/**
 * The booking service on both engines with a fixed clock: races decided by the database, outcomes
 * that say what changed at the store, guest tokens that die with the stay, and the same answers
 * whatever the process time zone is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { prepare, type Fixture } from './booking-fixtures';
import { createBooking } from '../../src/server/bookings/create';
import { cancelBooking } from '../../src/server/bookings/change';
import { book, cancel, change, getBooking, refusalError, type BookingContext } from '../../src/server/bookings/http';
import { guestTokenValid } from '../../src/server/bookings/view';
import { storeDaySlots } from '../../src/server/availability';
import { translatorFor } from '../../src/i18n';
import { bookings, mailOutbox } from '../../src/server/db/schema';
import { translate } from '../../src/server/http/api';
import type { Db } from '../../src/server/db/types';

// Friday 20:07 JST.
const NOW = new Date('2026-11-20T20:07:00+09:00');
const ctx = (now = NOW): BookingContext => ({ t: translate(translatorFor('ja')), locale: 'ja', origin: 'https://sugu.test', now });
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };
const asGuest = { kind: 'guest', token: '' } as const;

forEachEngine(
  'booking service',
  (get) => {
    let fx: Fixture;
    let db: Db;
    beforeAll(async () => {
      db = get().db;
      fx = await prepare(db);
    });

    it('race: K free tables, K+10 simultaneous bookings → exactly K succeed, 10 get 409, then 0 free', async () => {
      const start = '2026-11-21T19:00:00+09:00';
      const K = 4;
      const before = (await storeDaySlots(db, fx.storeId, '2026-11-21', 2, NOW))!.find((s) => s.start.getTime() === new Date(start).getTime())!;
      expect(before.freeTables).toBe(K);
      const results = await Promise.all(
        Array.from({ length: K + 10 }, (_, i) =>
          createBooking(
            db,
            { store_id: fx.storeId, start, party_size: 2, ...guest, phone: `090-7${String(i).padStart(3, '0')}-0000`, email: `r${i}@example.jp` },
            asGuest,
            NOW,
          ),
        ),
      );
      expect(results.filter((o) => o.kind === 'booked')).toHaveLength(K);
      expect(results.filter((o) => o.kind === 'slot_taken')).toHaveLength(10);
      const after = (await storeDaySlots(db, fx.storeId, '2026-11-21', 2, NOW))!.find((s) => s.start.getTime() === new Date(start).getTime())!;
      expect(after.freeTables).toBe(0);
      const rows = await db.select({ tableId: bookings.tableId }).from(bookings).where(eq(bookings.storeId, fx.storeId));
      expect(new Set(rows.map((r) => r.tableId)).size).toBe(K);
    });

    it('a lost race names the next free starts of that day for that party', async () => {
      const start = '2026-11-21T19:00:00+09:00';
      const outcome = await createBooking(db, { store_id: fx.storeId, start, party_size: 2, ...guest }, asGuest, NOW);
      expect(outcome.kind).toBe('slot_taken');
      if (outcome.kind !== 'slot_taken') return;
      expect(outcome.nextSlots.length).toBeGreaterThan(0);
      expect(outcome.nextSlots.every((s) => s.freeTables > 0)).toBe(true);
      const err = refusalError(ctx().t, outcome);
      expect([err.status, err.code]).toEqual([409, 'slot_taken']);
      const next = (err.options.extra as { next_slots: Array<{ start: string; free_tables: number }> }).next_slots;
      expect(next[0]!.start).toBe('2026-11-21T21:00:00+09:00');
      expect(next.every((s) => s.free_tables > 0 && s.start.endsWith('+09:00'))).toBe(true);
    });

    it('says which table and stay a booking, a change and a cancellation took or gave up', async () => {
      const booked = await createBooking(
        db,
        { store_id: fx.storeId, start: '2026-11-22T12:00:00+09:00', party_size: 2, ...guest, email: 'hold@example.jp' },
        asGuest,
        NOW,
      );
      if (booked.kind !== 'booked') throw new Error(booked.kind);
      const { booking, editToken } = booked;
      expect(booked.change).toEqual({ storeId: fx.storeId, released: null, taken: { tableId: booking.tableId, start: booking.start, end: booking.end } });
      const actor = { kind: 'guest', token: editToken! } as const;
      const moved = await change(db, booking.id, { start: '2026-11-22T13:00:00+09:00' }, actor, ctx());
      expect(moved.start.toISOString()).toBe('2026-11-22T04:00:00.000Z');
      const cancelled = await cancelBooking(db, booking.id, actor, NOW);
      if (cancelled.kind !== 'cancelled') throw new Error(cancelled.kind);
      expect(cancelled.change).toEqual({ storeId: fx.storeId, released: { tableId: moved.tableId, start: moved.start, end: moved.end }, taken: null });
      const again = await cancelBooking(db, booking.id, actor, NOW);
      expect(again).toMatchObject({ kind: 'cancelled', change: null });
    });

    it('the edit token works until the stay ends, then never again', async () => {
      const { booking, editToken } = await book(db, { store_id: fx.tinyStoreId, start: '2026-11-20T21:00:00+09:00', party_size: 2, ...guest }, asGuest, ctx());
      expect(editToken!.length).toBeGreaterThanOrEqual(22); // ≥128 bits in base64url
      const [row] = await db.select({ hash: bookings.guestTokenHash }).from(bookings).where(eq(bookings.id, booking.id));
      expect(row!.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.hash).not.toContain(editToken!);
      expect(await guestTokenValid(db, booking.id, editToken!, new Date('2026-11-20T22:59:00+09:00'))).not.toBeNull();
      expect(await guestTokenValid(db, booking.id, editToken!, new Date('2026-11-20T23:00:00+09:00'))).toBeNull();
      await expect(getBooking(db, booking.id, { kind: 'guest', token: editToken! }, new Date('2026-11-21T00:00:00+09:00'))).rejects.toMatchObject({
        status: 404,
      });
      // After the start it can be read but no longer changed or cancelled.
      const during = ctx(new Date('2026-11-20T21:30:00+09:00'));
      await expect(change(db, booking.id, { note: 'x' }, { kind: 'guest', token: editToken! }, during)).rejects.toMatchObject({ status: 409 });
      await expect(cancel(db, booking.id, { kind: 'guest', token: editToken! }, during)).rejects.toMatchObject({ status: 409 });
      const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'booking_created'));
      const mine = mails.find((m) => m.bodyText.includes(booking.code))!;
      expect(mine.bodyText).toContain(`https://sugu.test/store/${fx.tinyStoreId}/booking-without/edit/${booking.id}?token=${editToken}`);
      expect(mine.bodyText).toContain('11月20日(金) 21:00〜23:00');
    });

    describe.each(['America/New_York', 'UTC'])('with the process in TZ=%s', (zone) => {
      const saved = process.env.TZ;
      beforeAll(() => {
        process.env.TZ = zone;
      });
      afterAll(() => {
        process.env.TZ = saved;
      });

      it('keeps every rule and display in Asia/Tokyo', async () => {
        // Each zone's run is another diner: the same one cannot book the same start twice.
        const diner = { ...guest, phone: zone === 'UTC' ? '090-5555-0001' : '090-5555-0002', email: `${zone}@example.jp` };
        expect(new Date('2026-11-21T00:30:00+09:00').getHours()).not.toBe(0); // the zone really changed
        const t = ctx();
        // 00:30 on Saturday in Tokyo is still Friday evening in New York and Friday 15:30 in UTC.
        const late = await book(db, { store_id: fx.storeId, start: '2026-11-21T00:30:00+09:00', party_size: 2, ...diner }, asGuest, t);
        expect(late.booking.start.toISOString()).toBe('2026-11-20T15:30:00.000Z');
        const mails = await db
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, `${zone}@example.jp`));
        // Under its business day (Friday night), with the calendar date beside it.
        expect(mails[0]!.bodyText).toContain('11月20日(金) 翌0:30〜翌2:30（11月21日(土)）');
        // Friday 20 Nov + 13 = Thursday 3 Dec is the last bookable day; 4 Dec is refused, in Tokyo days.
        await expect(book(db, { store_id: fx.storeId, start: '2026-12-03T12:00:00+09:00', party_size: 2, ...diner }, asGuest, t)).resolves.toBeTruthy();
        await expect(book(db, { store_id: fx.storeId, start: '2026-12-04T12:00:00+09:00', party_size: 2, ...diner }, asGuest, t)).rejects.toMatchObject({
          status: 400,
          options: { fields: { start: expect.stringContaining('13日') } },
        });
        // 20:00 Tokyo is already past at 20:07 Tokyo, whatever the local clock says.
        await expect(book(db, { store_id: fx.storeId, start: '2026-11-20T20:00:00+09:00', party_size: 2, ...diner }, asGuest, t)).rejects.toMatchObject({
          status: 400,
          options: { fields: { start: expect.stringContaining('過ぎた') } },
        });
      });
    });
  },
  { seed: false },
);
