/**
 * Undoing a mark on both engines: arrived, no-show and a store's cancellation can be undone for 10
 * minutes (a cancellation is confirmed again only while its table is still free); later, after the
 * server restarts with its clock 20 minutes on (SUGU_CLOCK), the undo is refused with a clear
 * message in the staff's language; the audit keeps the mark and its undo with before and after.
 * A diner mailed a store's cancellation is mailed again, in their language, when it is undone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb, startApp, type App } from '../helpers/app';
import { openDb } from '../../src/server/db/client';
import type { DbHandle } from '../../src/server/db/types';
import { tokyoStart, type Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, STORE_HOST, type StaffFixture } from './store-fixtures';
import { storeBookingSchema } from '../../src/lib/contract/staff';
import { MARK_UNDO_MINUTES } from '../../src/lib/contract/limits';
import { toTokyoIso } from '../../src/lib/datetime';
import { ldOf } from '../helpers/jsonld';

type Json = Record<string, any>;
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };
const caller = { name: '田中 一郎', name_kana: 'タナカ イチロウ', phone: '03-1234-5678' };

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`undoing a mark [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let dataDir: string | undefined;
    let cleanup: () => Promise<void>;
    let tokenA: string;
    let tokenB: string;
    beforeAll(async () => {
      ({ app, fx, cleanup, dataDir } = await startWithStaff(engine));
      tokenA = (await staffLogin(app, fx.staffA)).token;
      tokenB = (await staffLogin(app, fx.staffB)).token;
    });
    afterAll(async () => {
      await app?.stop();
      await cleanup?.();
    });

    const patch = (token: string, id: number, body: Json, headers: Record<string, string> = bearer(token)) =>
      app.fetch(`/api/store/bookings/${id}`, { method: 'PATCH', headers, json: body });
    const book = async (storeId: number, start: string) => {
      const res = await app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: storeId, start, party_size: 2 } });
      expect(res.status).toBe(201);
      return ((await res.json()) as Json).id as number;
    };

    it('undoes arrived and a store’s cancellation within 10 minutes; the audit keeps every line with before and after', async () => {
      const id = await book(fx.storeId, tokyoStart(2, 19));
      let res = await patch(tokenA, id, { mark: 'arrived' });
      const marked = z.parse(storeBookingSchema, await res.json());
      expect(marked.attendance).toBe('arrived');
      const undoUntil = Date.parse(marked.undo_until!);
      expect(undoUntil - Date.now()).toBeGreaterThan(0);
      expect(undoUntil - Date.now()).toBeLessThanOrEqual(MARK_UNDO_MINUTES * 60_000);

      expect((await patch(tokenB, id, { mark: null })).status).toBe(404);
      res = await patch(tokenA, id, { mark: null });
      expect(res.status).toBe(200);
      expect(z.parse(storeBookingSchema, await res.json())).toMatchObject({ attendance: null, undo_until: null, status: 'confirmed' });
      // Nothing left to undo.
      res = await patch(tokenA, id, { mark: null });
      expect([res.status, ((await res.json()) as Json).error.code]).toEqual([409, 'not_changeable']);

      res = await patch(tokenA, id, { mark: 'cancelled', reason: '臨時休業のため' });
      expect(z.parse(storeBookingSchema, await res.json())).toMatchObject({ status: 'cancelled', store_cancel_reason: '臨時休業のため' });
      res = await patch(tokenA, id, { mark: null });
      expect(res.status).toBe(200);
      expect(z.parse(storeBookingSchema, await res.json())).toMatchObject({ status: 'confirmed', store_cancel_reason: null, cancelled_at: null });
      // Confirmed again, it holds its table: the same start is no longer free for that table.
      const day = (await (await app.fetch(`/api/store/bookings?date=${marked.start.slice(0, 10)}`, { headers: bearer(tokenA) })).json()) as Json;
      expect(day.items.find((b: Json) => b.id === id)).toMatchObject({ status: 'confirmed' });

      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql<
            { action: string; before: Json; after: Json }[]
          >`select action, before, after from staff_audit where target_id = ${id} order by id`;
          expect(rows.map((r) => r.action)).toEqual(['booking_arrived', 'booking_mark_undone', 'booking_cancelled', 'booking_mark_undone']);
          expect(rows[0]).toMatchObject({ before: { attendance: null, status: 'confirmed' }, after: { attendance: 'arrived' } });
          expect(rows[1]).toMatchObject({ before: { attendance: 'arrived' }, after: { attendance: null } });
          expect(rows[2]).toMatchObject({ before: { status: 'confirmed' }, after: { status: 'cancelled', store_cancel_reason: '臨時休業のため' } });
          expect(rows[3]).toMatchObject({ before: { status: 'cancelled' }, after: { status: 'confirmed', store_cancel_reason: null } });
        } finally {
          await h.close();
        }
      }
    });

    /** The outbox's rows to `to`: on PGlite the server holds the database, so it is stopped to read it and started again. */
    const mailsTo = async (to: string) => {
      const read = (h: DbHandle) =>
        h.sql<
          { kind: string; subject: string; body_text: string; body_html: string; calendar: string | null; locale: string }[]
        >`select kind, subject, body_text, body_html, calendar, locale from mail_outbox where to_address = ${to} order by id`;
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          return await read(h);
        } finally {
          await h.close();
        }
      }
      await app.stop();
      const h = await openDb({ dataDir: dataDir! });
      try {
        return await read(h);
      } finally {
        await h.close();
        app = await startApp('pglite', { STORE_HOST, DATA_DIR: dataDir! });
      }
    };

    it('mails the diner, in the language they booked in, that their booking stands when the store’s cancellation is undone', async () => {
      const to = `undone-${engine}@example.jp`;
      const booked = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: { 'accept-language': 'de' },
        json: { ...guest, email: to, store_id: fx.storeId, start: tokyoStart(4, 19), party_size: 2 },
      });
      expect(booked.status).toBe(201);
      const { id, code } = (await booked.json()) as Json;
      let from = app.output().length;
      expect((await patch(tokenA, id, { mark: 'cancelled', reason: '停電のため' })).status).toBe(200);
      await app.waitForOutput(/"msg":"mail_queued"[^\n]*"kind":"booking_store_cancelled"/, 'the cancellation mail', from);
      from = app.output().length;
      expect((await patch(tokenA, id, { mark: null })).status).toBe(200);
      await app.waitForOutput(/"msg":"mail_queued"[^\n]*"kind":"booking_store_restored"/, 'the mail that the booking stands', from);
      // Undoing another mark (arrived) mails nobody: the diner was never told of it.
      expect((await patch(tokenA, id, { mark: 'arrived' })).status).toBe(200);
      expect((await patch(tokenA, id, { mark: null })).status).toBe(200);

      const mails = await mailsTo(to);
      expect(mails.map((m) => m.kind)).toEqual(['booking_created', 'booking_store_cancelled', 'booking_store_restored']);
      const restored = mails[2]!;
      expect(restored.locale).toBe('de');
      expect(restored.subject).toBe(`[Sugu] Ihre Reservierung bleibt bestehen (${code}, テスト酒場 渋谷)`);
      expect(restored.body_text).toContain('Stornierung zurückgenommen');
      expect(restored.body_text).toContain(code);
      // The reason belonged to the cancellation; the booking stands, so none is given.
      expect(restored.body_text).not.toContain('停電のため');
      expect(mails[1]!.body_text).toContain('停電のため');
      // Each mail tells the diner's calendar and mail app too: the same event removed, then put back
      // at a higher revision; the reservation cancelled, then confirmed.
      const event = (m: (typeof mails)[number]) =>
        ['UID', 'METHOD', 'STATUS', 'SEQUENCE'].map((name) => m.calendar?.match(new RegExp(`^${name}:(.*)\r$`, 'm'))?.[1]);
      const [made, cancelled] = [event(mails[0]!), event(mails[1]!)];
      expect(cancelled).toEqual([made[0], 'CANCEL', 'CANCELLED', '1']);
      expect(event(restored)).toEqual([made[0], 'REQUEST', 'CONFIRMED', '2']);
      const status = (m: (typeof mails)[number]) => ldOf(m.body_html, 'FoodEstablishmentReservation').reservationStatus;
      expect(mails.map(status)).toEqual([
        'https://schema.org/ReservationConfirmed',
        'https://schema.org/ReservationCancelled',
        'https://schema.org/ReservationConfirmed',
      ]);
      // PGlite's server is stopped to read its outbox and started again: a busy machine takes a while.
    }, 120_000);

    it('keeps a store’s cancellation when its table was booked meanwhile', async () => {
      const id = await book(fx.tinyStoreId, tokyoStart(2, 20));
      expect((await patch(tokenB, id, { mark: 'cancelled', reason: '設備故障' })).status).toBe(200);
      // The only table, freed by the cancellation, is booked by someone else.
      await book(fx.tinyStoreId, tokyoStart(2, 20));
      const res = await patch(tokenB, id, { mark: null });
      expect([res.status, ((await res.json()) as Json).error.code]).toEqual([409, 'table_held']);
      const day = (await (await app.fetch(`/api/store/bookings?date=${tokyoStart(2, 20).slice(0, 10)}`, { headers: bearer(tokenB) })).json()) as Json;
      expect(day.items.find((b: Json) => b.id === id)).toMatchObject({ status: 'cancelled', store_cancel_reason: '設備故障' });
    });

    it('refuses an undo after 10 minutes, in Japanese unless another language is asked for', async () => {
      const later = await book(fx.storeId, tokyoStart(3, 19));
      expect((await patch(tokenA, later, { mark: 'arrived' })).status).toBe(200);
      // A phone booking starting at the next 15-minute mark: started once the clock has moved on.
      const step = 15 * 60_000;
      const soon = await app.fetch('/api/store/bookings', {
        method: 'POST',
        headers: bearer(tokenA),
        json: { ...caller, start: toTokyoIso(new Date(Math.ceil(Date.now() / step) * step)), party_size: 2 },
      });
      expect(soon.status).toBe(201);
      const soonId = ((await soon.json()) as Json).id as number;
      expect((await patch(tokenA, soonId, { mark: 'no_show' })).status).toBe(409);

      // The same data, served with the clock 20 minutes on.
      await app.stop();
      const clock = { STORE_HOST, SUGU_CLOCK: new Date(Date.now() + 20 * 60_000).toISOString() };
      app =
        engine === 'pglite' ? await startApp('pglite', { ...clock, DATA_DIR: dataDir! }) : await startApp('postgres', clock, { databaseUrl: app.databaseUrl });

      let res = await patch(tokenA, later, { mark: null }, { authorization: `Bearer ${tokenA}` });
      const error = ((await res.json()) as Json).error;
      expect([res.status, error.code]).toEqual([409, 'undo_expired']);
      expect(error.message).toContain(String(MARK_UNDO_MINUTES));
      expect(error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
      res = await patch(tokenA, later, { mark: null }, { authorization: `Bearer ${tokenA}`, 'accept-language': 'en' });
      expect(((await res.json()) as Json).error.message).toMatch(/^[\x20-\x7e]+$/);
      const kept = (await (await app.fetch(`/api/store/bookings?date=${tokyoStart(3, 19).slice(0, 10)}`, { headers: bearer(tokenA) })).json()) as Json;
      expect(kept.items.find((b: Json) => b.id === later).attendance).toBe('arrived');

      // A no-show marked now can be undone now.
      res = await patch(tokenA, soonId, { mark: 'no_show' });
      expect(z.parse(storeBookingSchema, await res.json()).attendance).toBe('no_show');
      res = await patch(tokenA, soonId, { mark: null });
      expect([res.status, z.parse(storeBookingSchema, await res.json()).attendance]).toEqual([200, null]);
    });
  });
}
