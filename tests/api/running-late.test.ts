/**
 * Running late on both engines, with the server's clock set (SUGU_CLOCK) to 19:00 in Tokyo on the
 * next business day and the bookings around it written before the server starts: a diner (signed in,
 * or a guest with the edit token) tells the store 「10分遅れます」 from 2 hours before the start until
 * the store's grace period ends (15 minutes by default, the store's setting); too early, too late,
 * cancelled or already arrived is 409, someone else's booking 404. The store's day list carries the
 * notice and when the grace period ends; 「席を解放」 (the no-show mark) frees the rest of the stay, so
 * the start it blocked is free in the listing again, and its undo takes the table back. The plain
 * form on the guest page calls the same service; every notice is in the audit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { openAppDb, until, type App } from '../helpers/app';
import { AUTO_RELEASE_ACTOR } from '../../src/server/staff/autoRelease';
import type { Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, type StaffFixture } from './store-fixtures';
import { bookings, stores, storeTables } from '../../src/server/db/schema';
import { hashToken, newToken } from '../../src/server/sessions';
import { businessDate } from '../../src/server/availability';
import { bookingSchema } from '../../src/lib/contract/responses';
import { storeBookingSchema } from '../../src/lib/contract/staff';
import { GRACE_MINUTES_DEFAULT } from '../../src/lib/contract/limits';
import { toTokyoIso } from '../../src/lib/datetime';
import { eveningClock } from '../helpers/clock';

type Json = Record<string, any>;
const MIN = 60_000;
// 19:00 in Tokyo on the next business day, whatever the hour the suite runs.
const clockAt = eveningClock();
const at = (minutes: number) => new Date(clockAt + minutes * MIN);

/** The bookings written around the clock, by what each is for. */
const PLAN = {
  inAnHour: { table: 0, from: 60, status: 'confirmed' },
  tooEarly: { table: 0, from: 200, status: 'confirmed' },
  justStarted: { table: 1, from: -10, status: 'confirmed' },
  pastGrace: { table: 2, from: -20, status: 'confirmed' },
  arrived: { table: 3, from: -5, status: 'confirmed', attendance: 'arrived' },
  cancelled: { table: 3, from: 30, status: 'cancelled' },
} as const;
type Planned = keyof typeof PLAN;

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`running late [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let staffToken: string;
    const guests = {} as Record<Planned | 'longGrace' | 'overdue' | 'over', { id: number; token: string }>;
    let mine: number;

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: new Date(clockAt).toISOString() }, async (db, f) => {
        const tables = await db
          .select({ id: storeTables.id, storeId: storeTables.storeId })
          .from(storeTables)
          .where(eq(storeTables.storeId, f.storeId))
          .orderBy(storeTables.id);
        const [tiny] = await db.select({ id: storeTables.id }).from(storeTables).where(eq(storeTables.storeId, f.tinyStoreId));
        const add = async (storeId: number, tableId: number, from: number, more: Partial<typeof bookings.$inferInsert>) => {
          const token = newToken();
          const [b] = await db
            .insert(bookings)
            .values({
              code: `LT-${newToken().slice(0, 10)}`,
              storeId,
              tableId,
              partySize: 2,
              startsAt: at(from),
              endsAt: at(from + 120),
              guestName: '遅刻 花子',
              guestNameKana: 'チコク ハナコ',
              guestPhone: '09012345678',
              guestEmail: 'late@example.jp',
              guestTokenHash: hashToken(token),
              ...more,
            })
            .returning({ id: bookings.id });
          return { id: b!.id, token };
        };
        for (const [key, p] of Object.entries(PLAN))
          guests[key as Planned] = await add(f.storeId, tables[p.table]!.id, p.from, { status: p.status, attendance: 'attendance' in p ? p.attendance : null });
        // The bar gives parties 30 minutes: 25 minutes after the start is still in time there.
        await db.update(stores).set({ graceMinutes: 30 }).where(eq(stores.id, f.tinyStoreId));
        guests.longGrace = await add(f.tinyStoreId, tiny!.id, -25, { endsAt: at(25) });
        const [m] = await db
          .insert(bookings)
          .values({
            code: `LT-${newToken().slice(0, 10)}`,
            storeId: f.tinyStoreId,
            tableId: tiny!.id,
            userId: f.users[0]!.id,
            partySize: 2,
            startsAt: at(30),
            endsAt: at(150),
          })
          .returning({ id: bookings.id });
        mine = m!.id;
        // A store that releases by itself: an overdue party with time left in its stay, and one whose stay is over.
        const [{ id: _id, createdAt: _c, ...copy }] = (await db.select().from(stores).where(eq(stores.id, f.tinyStoreId))) as [typeof stores.$inferSelect];
        const [auto] = await db
          .insert(stores)
          .values({ ...copy, name: '自動解放の店', graceMinutes: 15, autoRelease: true })
          .returning({ id: stores.id });
        const [autoTable] = await db
          .insert(storeTables)
          .values({ storeId: auto!.id, label: 'A1', kind: 'table', minParty: 1, maxParty: 4 })
          .returning({ id: storeTables.id });
        guests.overdue = await add(auto!.id, autoTable!.id, -30, { endsAt: at(90) });
        guests.over = await add(auto!.id, autoTable!.id, -150, { endsAt: at(-30) });
      }));
      staffToken = (await staffLogin(app, fx.staffA)).token;
    });
    afterAll(() => cleanup?.());

    const tell = (key: Planned | 'longGrace', notice: unknown, token = guests[key].token) =>
      app.fetch(`/api/guest-bookings/${guests[key].id}/late`, {
        method: 'POST',
        headers: { 'x-booking-token': token, 'accept-language': 'ja' },
        json: { notice },
      });
    const errorOf = async (res: Response) => [res.status, ((await res.json()) as Json).error.code];
    const storeDay = async () => {
      const res = await app.fetch(`/api/store/bookings?date=${businessDate(at(0))}&store_id=${fx.storeId}`, { headers: bearer(staffToken) });
      expect(res.status).toBe(200);
      return ((await res.json()) as Json).items.map((b: unknown) => z.parse(storeBookingSchema, b)) as z.infer<typeof storeBookingSchema>[];
    };

    it('a guest with the token tells the store they are 10 minutes late; the latest word replaces the last and the store sees it with its time', async () => {
      let res = await tell('inAnHour', 'late_10');
      expect(res.status).toBe(200);
      const told = z.parse(bookingSchema, await res.json());
      expect(told.running_late?.notice).toBe('late_10');
      expect(Date.parse(told.running_late!.at) - clockAt).toBeGreaterThanOrEqual(0);
      expect(told.late_open).toBe(true);
      res = await tell('inAnHour', 'on_way');
      expect(z.parse(bookingSchema, await res.json()).running_late?.notice).toBe('on_way');
      const row = (await storeDay()).find((b) => b.id === guests.inAnHour.id)!;
      expect(row.late?.notice).toBe('on_way');
      expect(row.release_from).toBe(toTokyoIso(at(60 + GRACE_MINUTES_DEFAULT)));
      // The guest page's reading of it says the same.
      const read = await app.fetch(`/api/guest-bookings/${guests.inAnHour.id}`, { headers: { 'x-booking-token': guests.inAnHour.token } });
      expect(((await read.json()) as Json).running_late.notice).toBe('on_way');
    });

    it('only with the booking’s own token: another token, none or another booking’s is not found; a notice outside the list is a field error', async () => {
      for (const token of ['', 'wrong', guests.justStarted.token]) expect(await errorOf(await tell('inAnHour', 'late_10', token))).toEqual([404, 'not_found']);
      const res = await tell('inAnHour', 'late_5');
      const body = (await res.json()) as Json;
      expect([res.status, Object.keys(body.error.fields)]).toEqual([400, ['notice']]);
    });

    it('is open from 2 hours before the start until the store’s grace period ends', async () => {
      expect(await errorOf(await tell('tooEarly', 'late_10'))).toEqual([409, 'not_changeable']);
      const started = await tell('justStarted', 'late_15');
      expect(started.status).toBe(200);
      // Ten minutes after the start, five of the default fifteen remain.
      expect(((await started.json()) as Json).late_open).toBe(true);
      const res = await tell('pastGrace', 'late_10');
      expect(res.status).toBe(409);
      expect(((await res.json()) as Json).error.message).toContain('2時間前');
      // 25 minutes after the start, inside the bar's own 30-minute grace period.
      expect((await tell('longGrace', 'on_way')).status).toBe(200);
    });

    it('refuses a cancelled booking and a party already marked arrived (409)', async () => {
      expect(await errorOf(await tell('cancelled', 'on_way'))).toEqual([409, 'not_changeable']);
      expect(await errorOf(await tell('arrived', 'late_10'))).toEqual([409, 'not_changeable']);
    });

    it('a signed-in diner tells the store about their own booking; another account’s is not found, without an account it is 401', async () => {
      const url = `/api/bookings/${mine}/late`;
      let res = await app.fetch(url, { method: 'POST', cookie: fx.users[0]!.cookie, json: { notice: 'late_10' } });
      expect(res.status).toBe(200);
      expect(z.parse(bookingSchema, await res.json()).running_late?.notice).toBe('late_10');
      res = await app.fetch(url, { method: 'POST', cookie: fx.users[1]!.cookie, json: { notice: 'late_10' } });
      expect(await errorOf(res)).toEqual([404, 'not_found']);
      res = await app.fetch(url, { method: 'POST', json: { notice: 'late_10' } });
      expect(res.status).toBe(401);
      // Nor is an account's booking a guest's, whatever the token.
      res = await app.fetch(`/api/guest-bookings/${mine}/late`, {
        method: 'POST',
        headers: { 'x-booking-token': guests.inAnHour.token },
        json: { notice: 'late_10' },
      });
      expect(await errorOf(res)).toEqual([404, 'not_found']);
    });

    it('past the grace period the store releases the table in one tap (the no-show mark): its start is free in the listing; the undo takes it back', async () => {
      const slot = toTokyoIso(at(15));
      const freeAt = async () => {
        const res = await app.fetch(`/api/stores/${fx.storeId}/availability?date=${businessDate(at(15))}&party=2`);
        expect(res.status).toBe(200);
        return (((await res.json()) as Json).slots as Json[]).find((s) => Date.parse(s.start) === Date.parse(slot))?.free_tables ?? 0;
      };
      const row = (await storeDay()).find((b) => b.id === guests.pastGrace.id)!;
      // The grace period is over by the server's clock: the table may be released now.
      expect(Date.parse(row.release_from)).toBeLessThan(clockAt);
      expect(row.release_from).toBe(toTokyoIso(at(-20 + GRACE_MINUTES_DEFAULT)));
      expect(await freeAt()).toBe(0);

      let res = await app.fetch(`/api/store/bookings/${guests.pastGrace.id}`, { method: 'PATCH', headers: bearer(staffToken), json: { mark: 'no_show' } });
      expect(res.status).toBe(200);
      const released = z.parse(storeBookingSchema, await res.json());
      expect(released.attendance).toBe('no_show');
      // The stay ends this minute, not at its booked end.
      expect(Date.parse(released.end)).toBeLessThanOrEqual(clockAt + 2 * MIN);
      expect(Date.parse(released.end)).toBeGreaterThan(clockAt);
      expect(await freeAt()).toBe(1);

      res = await app.fetch(`/api/store/bookings/${guests.pastGrace.id}`, { method: 'PATCH', headers: bearer(staffToken), json: { mark: null } });
      expect(res.status).toBe(200);
      expect(z.parse(storeBookingSchema, await res.json())).toMatchObject({ attendance: null, end: toTokyoIso(at(100)) });
      expect(await freeAt()).toBe(0);
    });

    it('a store that enabled the automatic release has an overdue party’s table released by itself, only while time remains in the stay', async () => {
      const { id, token } = guests.overdue;
      const end = await until(async () => {
        const b = ((await (await app.fetch(`/api/guest-bookings/${id}`, { headers: { 'x-booking-token': token } })).json()) as Json) ?? {};
        return Date.parse(b.end) < at(90).getTime() && b.end;
      }, 'the overdue booking released');
      expect(Date.parse(end)).toBeLessThanOrEqual(clockAt + 2 * MIN);
      if (engine !== 'postgres') return;
      const h = await openAppDb(app);
      try {
        const rows = await h.sql<
          { id: number; attendance: string | null; ends_at: string }[]
        >`select id, attendance, ends_at from bookings where id in (${id}, ${guests.over.id}) order by id`;
        expect(rows.map((r) => [r.id, r.attendance])).toEqual([
          [id, 'no_show'],
          [guests.over.id, null],
        ]);
        expect(new Date(rows[1]!.ends_at).getTime()).toBe(at(-30).getTime());
        const [line] = await h.sql<
          { user_id: number | null; actor_email: string; action: string }[]
        >`select user_id, actor_email, action from staff_audit where target_id = ${id}`;
        expect(line).toEqual({ user_id: null, actor_email: AUTO_RELEASE_ACTOR, action: 'booking_no_show' });
      } finally {
        await h.close();
      }
    });

    it('the guest page’s plain form calls the same service: told, redirected to the page that says so; a refusal is drawn on the page', async () => {
      const { id, token } = guests.justStarted;
      const page = `/store/${fx.storeId}/booking-without/edit/${id}`;
      const cookie = `sugu_guest_page=${encodeURIComponent(token)}`;
      const post = (fields: Record<string, string>) =>
        app.fetch(page, {
          method: 'POST',
          cookie,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
          body: new URLSearchParams(fields).toString(),
        });
      let res = await post({ intent: 'late', notice: 'late_10' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${page}?done=late`);
      const html = await (await app.fetch(`${page}?done=late`, { cookie, headers: { 'accept-language': 'ja' } })).text();
      expect(html).toContain('お店に伝えました');
      expect(html).toContain('お店に「10分遅れます」と伝えました');
      res = await post({ intent: 'late', notice: 'soon' });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('伝える内容を選んでください');

      const closed = guests.pastGrace;
      res = await app.fetch(`/store/${fx.storeId}/booking-without/edit/${closed.id}`, {
        method: 'POST',
        cookie: `sugu_guest_page=${encodeURIComponent(closed.token)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
        body: new URLSearchParams({ intent: 'late', notice: 'on_way' }).toString(),
      });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain('今はお店に連絡できません');
    });

    it.runIf(engine === 'postgres')('writes each notice in the audit with what it replaced', async () => {
      const h = await openAppDb(app);
      try {
        const rows = await h.sql<{ user_id: number | null; actor_email: string; store_id: number; before: Json; after: Json }[]>`
          select user_id, actor_email, store_id, before, after from staff_audit where action = 'booking_running_late' and target_id = ${guests.inAnHour.id} order by id`;
        expect(rows.map((r) => [r.before.late_notice, r.after.late_notice])).toEqual([
          [null, 'late_10'],
          ['late_10', 'on_way'],
        ]);
        expect(rows[0]).toMatchObject({ user_id: null, actor_email: 'late@example.jp', store_id: fx.storeId });
        const [signedIn] = await h.sql<{ user_id: number }[]>`select user_id from staff_audit where action = 'booking_running_late' and target_id = ${mine}`;
        expect(signedIn?.user_id).toBe(fx.users[0]!.id);
      } finally {
        await h.close();
      }
    });
  });
}
