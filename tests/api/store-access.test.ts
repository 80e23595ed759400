/**
 * The store API's doors on both engines: staff sign in through the diners' login call and get
 * their company and store; every store call answers guests 401, diners 403, and staff of another
 * store 404; the day's list shows the store's bookings (and no one else's) with party, table,
 * contact and note, the latest change first; the store host alone gets CORS.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb } from '../helpers/app';
import { tokyoStart, isoTokyo } from './booking-fixtures';
import { bearer, staffServer, staffLogin, STORE_HOST } from './store-fixtures';
import { loginAnswerSchema, storeBookingSchema, storeDaySchema } from '../../src/lib/contract/staff';
import { SseStream } from './live-sse';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays } from '../../src/lib/datetime';

type Json = Record<string, any>;
/** What a store call names of one store: the store, a table, a block and a booking of it. */
type Owned = { storeId: number; tableId: number; blockId: number; bookingId: number; closureId: number; hour: number };
type Call = { method: string; path: (o: Owned) => string; json?: (o: Owned) => Json; ok?: number };
/** A one-off day far ahead that keeps the 24-hour stores' hours (its business day, 05:00 to 05:00): the other tests see no change. */
const sameHours = (o: Owned) => ({ store_id: o.storeId, date: addTokyoDays(businessDate(new Date()), 12), hours: [{ opens: '05:00', closes: '29:00' }] });

/** Every store call, asked about a given store's things. */
const STORE_CALLS: Call[] = [
  { method: 'GET', path: (o) => `/api/store/bookings?store_id=${o.storeId}` },
  { method: 'PATCH', path: (o) => `/api/store/bookings/${o.bookingId}`, json: () => ({ mark: 'arrived' }) },
  { method: 'PATCH', path: (o) => `/api/store/bookings/${o.bookingId}`, json: () => ({ mark: null }) },
  { method: 'PATCH', path: (o) => `/api/store/bookings/${o.bookingId}`, json: () => ({ note: '窓際の席' }) },
  {
    method: 'POST',
    path: () => '/api/store/bookings',
    json: (o) => ({ store_id: o.storeId, start: tokyoStart(5, o.hour), party_size: 2, name: '電話 予約', name_kana: 'でんわ よやく', phone: '03-1111-2222' }),
  },
  { method: 'GET', path: (o) => `/api/store/walk-ins?store_id=${o.storeId}` },
  { method: 'GET', path: (o) => `/api/store/walk-ins/suggest?store_id=${o.storeId}&party_size=2` },
  { method: 'PUT', path: () => '/api/store/hours/3', json: (o) => ({ store_id: o.storeId, hours: [{ opens: '00:00', closes: '24:00' }] }), ok: 200 },
  { method: 'GET', path: (o) => `/api/store/tables?store_id=${o.storeId}` },
  { method: 'GET', path: (o) => `/api/store/blocks?store_id=${o.storeId}` },
  {
    method: 'POST',
    path: () => '/api/store/blocks',
    json: (o) => ({ store_id: o.storeId, table_id: o.tableId, start: tokyoStart(2, o.hour), end: tokyoStart(2, o.hour + 1) }),
  },
  { method: 'DELETE', path: (o) => `/api/store/blocks/${o.blockId}` },
  { method: 'PATCH', path: (o) => `/api/store/tables/${o.tableId}`, json: () => ({ online: true }) },
  { method: 'PUT', path: () => '/api/store/turn-times', json: (o) => ({ store_id: o.storeId, stay_minutes: 120, turn_times: [] }), ok: 200 },
  { method: 'GET', path: (o) => `/api/store/closures?store_id=${o.storeId}` },
  { method: 'PUT', path: () => '/api/store/closures', json: sameHours, ok: 200 },
  { method: 'DELETE', path: (o) => `/api/store/closures/${o.closureId}`, ok: 200 },
  { method: 'GET', path: (o) => `/api/store/stream?store_id=${o.storeId}` },
];
const SUCCESS: Record<string, number> = { GET: 200, PATCH: 200, POST: 201, DELETE: 204 };

const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`store API access [${engine}]`, () => {
    const s = staffServer(engine);

    const tomorrow = () => addTokyoDays(businessDate(new Date()), 1);

    it('signs staff in through /api/login with their company and store, and records it', async () => {
      const answer = z.parse(loginAnswerSchema, await staffLogin(s.app, s.fx.staffA));
      expect(answer).toMatchObject({ tenant: s.fx.staffA.tenant, store_id: s.fx.storeId, store_ids: [s.fx.storeId, s.fx.eveningStoreId] });
      expect(answer.token.length).toBeGreaterThanOrEqual(40);
      // The same session rules: an HttpOnly cookie as for diners.
      const res = await s.app.fetch('/api/login', { method: 'POST', json: { email: s.fx.staffB.email, password: s.fx.staffB.password } });
      expect(res.headers.getSetCookie().find((c) => c.startsWith('example='))).toMatch(/HttpOnly/i);
      expect(((await res.json()) as Json).store_id).toBe(s.fx.tinyStoreId);
      if (engine === 'postgres') {
        const h = await openAppDb(s.app);
        try {
          const rows = await h.sql`select a.action, a.store_id, a.actor_email from staff_audit a where a.actor_email = ${s.fx.staffA.email}`;
          expect(rows.length).toBeGreaterThanOrEqual(2);
          expect(rows[0]).toMatchObject({ action: 'sign_in', store_id: s.fx.storeId, actor_email: s.fx.staffA.email });
        } finally {
          await h.close();
        }
      }
    });

    it('answers diners with no company and no store', async () => {
      const res = await s.app.fetch('/api/login', { method: 'POST', json: { email: 'demo@sugu.jp', password: 'sugu-demo-2026' } });
      expect(res.status).toBe(200);
      expect(z.parse(loginAnswerSchema, await res.json())).toMatchObject({ tenant: null, store_id: null, store_ids: [] });
    });

    // Fourteen calls asked by ten callers each: on a loaded machine it takes longer than the default budget.
    it('keeps every store call from guests (401), diners (403) and other stores’ staff (404)', async () => {
      // Each store's things, made by its own staff.
      const owned = async (storeId: number, token: string, hour: number): Promise<Owned> => {
        const tables = (await (await s.app.fetch(`/api/store/tables?store_id=${storeId}`, { headers: bearer(token) })).json()) as Json;
        const tableId = tables.items[0].id as number;
        const block = (await (
          await s.app.fetch('/api/store/blocks', {
            method: 'POST',
            headers: bearer(token),
            json: { store_id: storeId, table_id: tableId, start: tokyoStart(3, hour), end: tokyoStart(3, hour + 1) },
          })
        ).json()) as Json;
        const booking = (await (
          await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: storeId, start: tokyoStart(4, hour), party_size: 2 } })
        ).json()) as Json;
        const closure = (await (
          await s.app.fetch('/api/store/closures', { method: 'PUT', headers: bearer(token), json: sameHours({ storeId } as Owned) })
        ).json()) as Json;
        expect([block.id, booking.id, closure.closure.id].every(Number.isInteger)).toBe(true);
        return { storeId, tableId, blockId: block.id, bookingId: booking.id, closureId: closure.closure.id, hour };
      };
      const a = await owned(s.fx.storeId, s.tokenA, 10);
      const b = await owned(s.fx.tinyStoreId, s.tokenB, 12);
      for (const call of STORE_CALLS) {
        const ask = async (o: Owned, headers: Record<string, string>, cookie?: string) => {
          const res = await s.app.fetch(call.path(o), { method: call.method, json: call.json?.(o), headers, cookie });
          // A live stream stays open: its status is the answer.
          if (res.headers.get('content-type')?.startsWith('text/event-stream')) return (await res.body?.cancel(), [res.status, 'ok']);
          const body = res.status === 204 ? null : ((await res.json()) as Json);
          return [res.status, res.status >= 400 ? body!.error.code : 'ok'];
        };
        const label = `${call.method} ${call.path(a)}`;
        for (const o of [a, b]) {
          expect([label, 'guest', await ask(o, {})]).toEqual([label, 'guest', [401, 'unauthorized']]);
          expect([label, 'diner cookie', await ask(o, {}, s.fx.users[0]!.cookie)]).toEqual([label, 'diner cookie', [403, 'forbidden']]);
          expect([label, 'diner bearer', await ask(o, bearer(s.fx.users[1]!.token))]).toEqual([label, 'diner bearer', [403, 'forbidden']]);
        }
        expect([label, 'A on B', await ask(b, bearer(s.tokenA))]).toEqual([label, 'A on B', [404, 'not_found']]);
        expect([label, 'B on A', await ask(a, bearer(s.tokenB))]).toEqual([label, 'B on A', [404, 'not_found']]);
        const ok = call.ok ?? SUCCESS[call.method];
        expect([label, 'A on A', await ask(a, bearer(s.tokenA))]).toEqual([label, 'A on A', [ok, 'ok']]);
        expect([label, 'B on B', await ask(b, bearer(s.tokenB))]).toEqual([label, 'B on B', [ok, 'ok']]);
      }
    }, 120_000);

    it('lists the business day’s bookings with party, table, contact and note, the latest change first', async () => {
      const day = tomorrow();
      const first = (await (
        await s.app.fetch('/api/bookings', {
          method: 'POST',
          cookie: s.fx.users[0]!.cookie,
          json: { store_id: s.fx.storeId, start: tokyoStart(1, 19), party_size: 3, note: '誕生日です' },
        })
      ).json()) as Json;
      const second = (await (
        await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.storeId, start: tokyoStart(1, 20), party_size: 2 } })
      ).json()) as Json;
      // 04:30 the next morning still belongs to this business day (05:00 to 05:00).
      const late = (await (
        await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.storeId, start: tokyoStart(1, 28, 30), party_size: 2 } })
      ).json()) as Json;
      // Another store's booking that day stays out of A's list.
      const other = (await (
        await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.tinyStoreId, start: tokyoStart(1, 19), party_size: 2 } })
      ).json()) as Json;
      expect([first.id, second.id, late.id, other.id].every(Number.isInteger)).toBe(true);

      const list = async () => z.parse(storeDaySchema, await (await s.app.fetch(`/api/store/bookings?date=${day}`, { headers: bearer(s.tokenA) })).json());
      let answer = await list();
      expect(answer).toMatchObject({ store_id: s.fx.storeId, date: day });
      const ids = answer.items.map((b) => b.id);
      expect(ids).toEqual(expect.arrayContaining([first.id, second.id, late.id]));
      expect(ids).not.toContain(other.id);
      expect(ids.indexOf(late.id)).toBeLessThan(ids.indexOf(second.id));
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      const mine = answer.items.find((b) => b.id === first.id)!;
      expect(mine).toMatchObject({
        party_size: 3,
        note: '誕生日です',
        status: 'confirmed',
        start: isoTokyo(tokyoStart(1, 19)),
        contact: { name: '予約 太郎1', guest: false, email: s.fx.users[0]!.email },
      });
      expect(mine.table.label).toMatch(/^T\d$/);
      expect(answer.items.find((b) => b.id === second.id)!.contact).toEqual({
        name: guest.name,
        name_kana: guest.name_kana,
        phone: '09012345678',
        email: guest.email,
        guest: true,
      });

      // A cancellation is the latest change: it comes first, marked cancelled.
      expect((await s.app.fetch(`/api/bookings/${first.id}`, { method: 'DELETE', cookie: s.fx.users[0]!.cookie })).status).toBeLessThan(300);
      answer = await list();
      expect(answer.items[0]).toMatchObject({ id: first.id, status: 'cancelled' });
      expect(answer.items[0]!.cancelled_at).not.toBeNull();
    });

    it('refuses malformed days and store ids with the field named, and answers the staff’s store by default', async () => {
      for (const [query, field] of [
        ['date=2026-02-30', 'date'],
        ['date=tomorrow', 'date'],
        ['store_id=abc', 'store_id'],
        ['store_id=0', 'store_id'],
        ['store_id=99999999999', 'store_id'],
      ] as const) {
        const res = await s.app.fetch(`/api/store/bookings?${query}`, { headers: { ...bearer(s.tokenA), 'accept-language': 'en' } });
        const body = (await res.json()) as Json;
        expect([query, res.status, body.error.code, Object.keys(body.error.fields ?? {})]).toEqual([query, 400, 'validation_failed', [field]]);
      }
      const res = await s.app.fetch('/api/store/bookings', { headers: bearer(s.tokenB) });
      expect(z.parse(storeDaySchema, await res.json())).toMatchObject({ store_id: s.fx.tinyStoreId, date: businessDate(new Date()) });
    });

    it('streams the store’s bookings to the door tablet as they are made, marked and cancelled', async () => {
      const stream = await SseStream.open(s.app, '/api/store/stream', bearer(s.tokenA));
      try {
        const made = (await (
          await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.storeId, start: tokyoStart(9, 18), party_size: 2 } })
        ).json()) as Json;
        // Another store's booking never reaches A's tablet.
        const other = (await (
          await s.app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest, store_id: s.fx.tinyStoreId, start: tokyoStart(9, 18), party_size: 2 } })
        ).json()) as Json;
        const bookingEvents = () => stream.events.filter((e) => e.event === 'booking').map((e) => z.parse(storeBookingSchema, JSON.parse(e.data)));
        const first = await stream.until(() => bookingEvents().find((b) => b.id === made.id), 'the new booking');
        expect(first).toMatchObject({ status: 'confirmed', party_size: 2, contact: { name: guest.name } });
        expect(
          (await s.app.fetch(`/api/store/bookings/${made.id}`, { method: 'PATCH', headers: bearer(s.tokenA), json: { mark: 'cancelled', reason: '臨時休業' } }))
            .status,
        ).toBe(200);
        await stream.until(() => bookingEvents().find((b) => b.id === made.id && b.status === 'cancelled'), 'the cancellation');
        expect(bookingEvents().map((b) => b.id)).not.toContain(other.id);
        expect(stream.lastEventId).toMatch(/^\d+$/);
      } finally {
        stream.close();
      }
    });

    it('grants CORS to the store host alone, with credentials, and refuses other origins’ preflights', async () => {
      const preflight = (origin: string, path = '/api/store/bookings') =>
        s.app.fetch(path, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
      const granted = await preflight(STORE_HOST);
      expect(granted.status).toBe(204);
      expect(granted.headers.get('access-control-allow-origin')).toBe(STORE_HOST);
      expect(granted.headers.get('access-control-allow-credentials')).toBe('true');
      expect(granted.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      for (const [origin, path] of [
        ['https://evil.example', '/api/store/bookings'],
        ['https://store.example.jp.evil.example', '/api/store/bookings'],
        ['http://store.example.jp', '/api/store/bookings'],
        ['null', '/api/store/bookings'],
        // The store host reaches the store API and the sign-in, nothing else.
        [STORE_HOST, '/api/bookings'],
      ] as const) {
        const res = await preflight(origin, path);
        expect([origin, path, res.status, res.headers.get('access-control-allow-origin')]).toEqual([origin, path, 403, null]);
        expect(((await res.json()) as Json).error.code).toBe('cross_origin');
      }
      const read = await s.app.fetch('/api/store/bookings', { headers: { ...bearer(s.tokenA), origin: STORE_HOST } });
      expect(read.headers.get('access-control-allow-origin')).toBe(STORE_HOST);
      expect(read.headers.get('vary')).toMatch(/origin/i);
      const foreign = await s.app.fetch('/api/store/bookings', { headers: { ...bearer(s.tokenA), origin: 'https://evil.example' } });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

      // The store host signs in with a JSON post; another site's form post is still refused.
      const login = await s.app.fetch('/api/login', {
        method: 'POST',
        headers: { origin: STORE_HOST },
        json: { email: s.fx.staffB.email, password: s.fx.staffB.password },
      });
      expect(login.status).toBe(200);
      expect(login.headers.get('access-control-allow-origin')).toBe(STORE_HOST);
      const forged = await s.app.fetch('/api/login', {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
        body: JSON.stringify({ email: s.fx.staffB.email, password: s.fx.staffB.password }),
      });
      expect(forged.status).toBe(403);
    });
  });
}
