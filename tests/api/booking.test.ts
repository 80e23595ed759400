/**
 * Bookings over HTTP against the real server on both engines: create, races, edit, cancel,
 * guest tokens, ownership and bad input. The fixture store is open 24 hours with four tables
 * that fit 2–4 people (three for four, one private room for six).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDb, type App } from '../helpers/app';
import { startWithFixture, tokyoStart, isoTokyo, type Fixture } from './booking-fixtures';
import { bookingListSchema, bookingSchema, guestBookedSchema } from '../../src/lib/contract/responses';

const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };

type Json = Record<string, any>;

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`bookings [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
    });
    afterAll(() => cleanup?.());

    const as = (n: 0 | 1) => fx.users[n]!.cookie;
    const book = (n: 0 | 1, body: Json) =>
      app.fetch('/api/bookings', { method: 'POST', json: body, cookie: as(n), headers: { 'accept-language': 'ja-JP,ja;q=0.9' } });
    // Each call is another diner (one diner cannot hold two overlapping bookings at a store), unless the body names the contact.
    let diners = 0;
    const guestBook = (body: Json) => {
      const n = ++diners;
      const contact = { ...guest, phone: `090-${5000 + n}-${6000 + n}`, email: `guest${n}-${process.pid}@example.jp` };
      return app.fetch('/api/guest-bookings', { method: 'POST', json: { ...contact, ...body } });
    };
    /** Rows in the bookings table of the fixture stores, to prove nothing was half-written. */
    const countAll = async () => {
      let n = 0;
      for (const u of [0, 1] as const) n += ((await (await app.fetch('/api/bookings', { cookie: as(u) })).json()) as Json).items.length;
      return n;
    };

    it('books at once: 201 with the contract fields, times in +09:00, smallest fitting table', async () => {
      const start = tokyoStart(2, 19, 30);
      const res = await book(0, { store_id: fx.storeId, start, party_size: 2, note: '窓側希望' });
      expect(res.status).toBe(201);
      const b = (await res.json()) as Json;
      expect(b).toMatchObject({ store_id: fx.storeId, start: isoTokyo(start), party_size: 2, status: 'confirmed', note: '窓側希望' });
      expect(b.code).toMatch(/^SG-[2-9A-HJ-NP-Z]{6}$/);
      expect(b.end).toBe(isoTokyo(new Date(new Date(start).getTime() + 120 * 60_000).toISOString()));
      expect(b.start).toMatch(/T19:30:00\+09:00$/);
      expect(b.table_kind).not.toBe('private_room');
      expect(b).not.toHaveProperty('table_id');
      // The answers are what the contract says the islands receive.
      expect(bookingSchema.safeParse(b).error).toBeUndefined();
      const list = (await (await app.fetch('/api/bookings', { cookie: as(0) })).json()) as Json;
      expect(bookingListSchema.safeParse(list).error).toBeUndefined();
      expect(list.items.map((x: Json) => x.id)).toContain(b.id);
      const one = await app.fetch(`/api/bookings/${b.id}`, { cookie: as(0) });
      expect(one.status).toBe(200);
      const ics = await app.fetch(`/api/bookings/${b.id}/ics`, { cookie: as(0) });
      expect(ics.headers.get('content-type')).toContain('text/calendar');
      const text = await ics.text();
      expect(text).toContain(`DTSTART;TZID=Asia/Tokyo:${b.start.slice(0, 10).replace(/-/g, '')}T193000`);
      expect(text).toContain('LOCATION:東京都渋谷区道玄坂1-2-3\\, テストビル');
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const mails = await h.sql<
            { to_address: string; subject: string; body_text: string }[]
          >`select to_address, subject, body_text from mail_outbox where kind = 'booking_created' and to_address = ${fx.users[0]!.email}`;
          expect(mails).toHaveLength(1);
          expect(mails[0]!.subject).toContain(b.code);
          expect(mails[0]!.body_text).toMatch(/\d+月\d+日\([日月火水木金土]\) 19:30〜21:30/);
          expect(mails[0]!.body_text).toContain('前日までのキャンセルは無料です。');
          const events = await h.sql<{ n: number }[]>`select count(*)::int as n from availability_events where store_id = ${fx.storeId}`;
          expect(events[0]!.n).toBeGreaterThanOrEqual(1);
        } finally {
          await h.close();
        }
      }
    });

    it('asks for sign-in (401) without a session', async () => {
      const res = await app.fetch('/api/bookings', { method: 'POST', json: { store_id: fx.storeId, start: tokyoStart(2, 12), party_size: 2 } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as Json).error.code).toBe('unauthorized');
      expect((await app.fetch('/api/bookings')).status).toBe(401);
    });

    it(`race: ${4 + 10} simultaneous bookings for 4 free tables → exactly 4 × 201 and 10 × 409, then 0 free`, async () => {
      const start = tokyoStart(3, 20, 0);
      const results = await Promise.all(
        Array.from({ length: 14 }, (_, i) => guestBook({ store_id: fx.storeId, start, party_size: 2, email: `race${i}@example.jp` })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(4);
      expect(statuses.filter((s) => s === 409)).toHaveLength(10);
      const losers = await Promise.all(results.filter((r) => r.status === 409).map((r) => r.json() as Promise<Json>));
      for (const l of losers) {
        expect(l.error.code).toBe('slot_taken');
        expect(Array.isArray(l.error.next_slots)).toBe(true);
        expect(l.error.next_slots.length).toBeGreaterThan(0);
        // The lost slot is not offered again; every offer has room.
        for (const s of l.error.next_slots) {
          expect(s.free_tables).toBeGreaterThan(0);
          expect(s.start).toMatch(/\+09:00$/);
        }
      }
      const winners = await Promise.all(results.filter((r) => r.status === 201).map((r) => r.json() as Promise<Json>));
      expect(new Set(winners.map((w) => w.table_kind)).size).toBeGreaterThanOrEqual(2);
      // 0 free now: one more, even for a party of one, is refused and the slot is not among the offers.
      const again = await guestBook({ store_id: fx.storeId, start, party_size: 1 });
      expect(again.status).toBe(409);
      const body = (await again.json()) as Json;
      expect(body.error.next_slots.map((s: Json) => s.start)).not.toContain(isoTokyo(start));
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql<
            { n: number; tables: number }[]
          >`select count(*)::int as n, count(distinct table_id)::int as tables from bookings where store_id = ${fx.storeId} and starts_at = ${start} and status = 'confirmed'`;
          expect(rows[0]).toEqual({ n: 4, tables: 4 });
        } finally {
          await h.close();
        }
      }
    });

    it('one account cannot hold two overlapping bookings at one store (409 with a clear message)', async () => {
      const first = await book(1, { store_id: fx.storeId, start: tokyoStart(4, 18), party_size: 2 });
      expect(first.status).toBe(201);
      const second = await book(1, { store_id: fx.storeId, start: tokyoStart(4, 19), party_size: 2 });
      expect(second.status).toBe(409);
      const body = (await second.json()) as Json;
      expect(body.error.code).toBe('duplicate_booking');
      expect(body.error.message).toMatch(/時間の重なるご予約/);
      expect(body.error.booking_url).toBe(`/store/${fx.storeId}/booking/edit/${((await first.json()) as Json).id}`);
    });

    it('edits time, party, seat and note in one step; a full target keeps the booking as it was', async () => {
      const res = await book(0, { store_id: fx.storeId, start: tokyoStart(5, 18), party_size: 2 });
      const b = (await res.json()) as Json;
      const patch = await app.fetch(`/api/bookings/${b.id}`, {
        method: 'PATCH',
        cookie: as(0),
        json: { start: tokyoStart(5, 19, 15), party_size: 5, seat_preference: 'private_room', note: '誕生日です' },
      });
      expect(patch.status).toBe(200);
      const changed = (await patch.json()) as Json;
      expect(changed).toMatchObject({
        id: b.id,
        code: b.code,
        start: isoTokyo(tokyoStart(5, 19, 15)),
        party_size: 5,
        seat_preference: 'private_room',
        table_kind: 'private_room',
        note: '誕生日です',
      });

      // Fill the tiny store, then try to move a booking there: not possible across stores, so fill our store's slot instead.
      const full = tokyoStart(5, 22);
      await Promise.all(Array.from({ length: 4 }, (_, i) => guestBook({ store_id: fx.storeId, start: full, party_size: 2, email: `f${i}@example.jp` })));
      const clash = await app.fetch(`/api/bookings/${b.id}`, { method: 'PATCH', cookie: as(0), json: { start: full } });
      expect(clash.status).toBe(409);
      expect(((await clash.json()) as Json).error.code).toBe('slot_taken');
      const after = (await (await app.fetch(`/api/bookings/${b.id}`, { cookie: as(0) })).json()) as Json;
      expect(after).toMatchObject({ start: changed.start, party_size: 5, table_kind: 'private_room', status: 'confirmed' });

      // Moving by 15 minutes onto its own table works: its own hold does not count against it.
      const nudge = await app.fetch(`/api/bookings/${b.id}`, { method: 'PATCH', cookie: as(0), json: { start: tokyoStart(5, 19, 30) } });
      expect(nudge.status).toBe(200);
    });

    it('cancels until the start; a cancelled booking cannot be changed and frees its table', async () => {
      const start = tokyoStart(6, 12);
      const tiny = await book(0, { store_id: fx.tinyStoreId, start, party_size: 2 });
      expect(tiny.status).toBe(201);
      const b = (await tiny.json()) as Json;
      expect((await guestBook({ store_id: fx.tinyStoreId, start, party_size: 2 })).status).toBe(409);
      const del = await app.fetch(`/api/bookings/${b.id}`, { method: 'DELETE', cookie: as(0) });
      expect(del.status).toBe(200);
      expect(((await del.json()) as Json).status).toBe('cancelled');
      expect((await app.fetch(`/api/bookings/${b.id}`, { method: 'DELETE', cookie: as(0) })).status).toBe(200);
      const patch = await app.fetch(`/api/bookings/${b.id}`, { method: 'PATCH', cookie: as(0), json: { party_size: 1 } });
      expect(patch.status).toBe(409);
      expect((await guestBook({ store_id: fx.tinyStoreId, start, party_size: 2 })).status).toBe(201);
    });

    it('guest booking: 201 with an edit token shown once; token by header or cookie; missing or wrong → 404', async () => {
      const res = await guestBook({ store_id: fx.storeId, start: tokyoStart(7, 18), party_size: 3, name_kana: 'やまだ はなこ', phone: '03 1234 5678' });
      expect(res.status).toBe(201);
      const b = (await res.json()) as Json;
      expect(b.edit_token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      expect(guestBookedSchema.safeParse(b).error).toBeUndefined();
      expect(b.guest).toMatchObject({ name: '山田 花子', phone: '0312345678' });
      const cookies = res.headers.getSetCookie();
      expect(
        cookies.some((c) => c.startsWith('sugu_guest=') && c.includes(`Path=/api/guest-bookings/${b.id}`) && /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c)),
      ).toBe(true);
      expect(
        cookies.some((c) => c.startsWith('sugu_guest_page=') && c.includes(`Path=/store/${fx.storeId}/booking-without/edit/${b.id}`) && /HttpOnly/i.test(c)),
      ).toBe(true);
      // The edit token travels only to its booking; the device id (no secret, kept only hashed) to
      // every booking form too, since one device is one diner wherever it books from.
      expect(cookies.filter((c) => c.startsWith('sugu_guest')).every((c) => !/Path=\/;/i.test(c) && !/Path=\/$/i.test(c))).toBe(true);
      expect(cookies.some((c) => c.startsWith('sugu_device=') && /Path=\/(;|$)/i.test(c) && /HttpOnly/i.test(c))).toBe(true);

      const url = `/api/guest-bookings/${b.id}`;
      expect((await app.fetch(url, { headers: { 'x-booking-token': b.edit_token } })).status).toBe(200);
      expect((await app.fetch(url, { cookie: `sugu_guest=${b.edit_token}` })).status).toBe(200);
      const second = (await (await app.fetch(url, { headers: { 'x-booking-token': b.edit_token } })).json()) as Json;
      expect(second).not.toHaveProperty('edit_token');
      for (const headers of [
        {} as Record<string, string>,
        { 'x-booking-token': 'wrong' },
        { 'x-booking-token': b.edit_token.slice(0, -1) + (b.edit_token.endsWith('A') ? 'B' : 'A') },
        { 'x-booking-token': 'x'.repeat(5000) },
      ]) {
        const r = await app.fetch(url, { headers });
        expect(r.status).toBe(404);
        expect(((await r.json()) as Json).error.code).toBe('not_found');
      }
      const patch = await app.fetch(url, {
        method: 'PATCH',
        headers: { 'x-booking-token': b.edit_token },
        json: { party_size: 2, start: tokyoStart(7, 18, 45) },
      });
      expect(patch.status).toBe(200);
      expect(((await patch.json()) as Json).party_size).toBe(2);
      const ics = await app.fetch(`${url}/ics`, { headers: { 'x-booking-token': b.edit_token } });
      expect(ics.status).toBe(200);
      expect((await app.fetch(`${url}/ics`)).status).toBe(404);
      const del = await app.fetch(url, { method: 'DELETE', headers: { 'x-booking-token': b.edit_token } });
      expect(((await del.json()) as Json).status).toBe('cancelled');
    });

    it('ownership matrix: another user’s and a guest’s bookings answer 404 to read, edit and cancel, and stay untouched', async () => {
      const mine = (await (await book(0, { store_id: fx.storeId, start: tokyoStart(8, 18), party_size: 2 })).json()) as Json;
      const g = (await (await guestBook({ store_id: fx.storeId, start: tokyoStart(8, 18), party_size: 2 })).json()) as Json;
      const other = (await (await guestBook({ store_id: fx.storeId, start: tokyoStart(8, 21), party_size: 2 })).json()) as Json;
      const attempts: Array<[string, string, { cookie?: string; headers?: Record<string, string> }]> = [
        // user 2 on user 1's booking
        [`/api/bookings/${mine.id}`, 'user2→user1', { cookie: as(1) }],
        [`/api/bookings/${mine.id}/ics`, 'user2→user1 ics', { cookie: as(1) }],
        // a signed-in user on a guest booking through the user API
        [`/api/bookings/${g.id}`, 'user1→guest', { cookie: as(0) }],
        // the guest API with a user's session, or with another guest's token
        [`/api/guest-bookings/${mine.id}`, 'session→guest api', { cookie: as(0) }],
        [`/api/guest-bookings/${g.id}`, 'other guest token', { headers: { 'x-booking-token': other.edit_token } }],
        [`/api/guest-bookings/${mine.id}`, 'guest token on user booking', { headers: { 'x-booking-token': g.edit_token } }],
        // tampered ids
        [`/api/bookings/${mine.id}abc`, 'tampered id', { cookie: as(0) }],
        [`/api/bookings/-1`, 'negative id', { cookie: as(0) }],
        [`/api/guest-bookings/99999999`, 'unknown id', { headers: { 'x-booking-token': g.edit_token } }],
      ];
      for (const [path, label, opts] of attempts) {
        for (const [method, json] of [
          ['GET', undefined],
          ['PATCH', { note: 'hacked' }],
          ['DELETE', undefined],
        ] as const) {
          if (path.endsWith('/ics') && method !== 'GET') continue;
          const r = await app.fetch(path, { method, json, ...opts });
          expect([label, method, r.status]).toEqual([label, method, 404]);
          const body = (await r.json()) as Json;
          expect(body.error.code).toBe('not_found');
          expect(JSON.stringify(body)).not.toContain(mine.code);
        }
      }
      const still = (await (await app.fetch(`/api/bookings/${mine.id}`, { cookie: as(0) })).json()) as Json;
      expect(still).toMatchObject({ status: 'confirmed', note: '' });
      const gStill = (await (await app.fetch(`/api/guest-bookings/${g.id}`, { headers: { 'x-booking-token': g.edit_token } })).json()) as Json;
      expect(gStill).toMatchObject({ status: 'confirmed', note: '' });
    });

    it('guest edit link: the token becomes a short-lived HttpOnly cookie for this booking and leaves the URL; a bad link says so', async () => {
      const b = (await (await guestBook({ store_id: fx.storeId, start: tokyoStart(11, 18), party_size: 2 })).json()) as Json;
      const page = `/store/${fx.storeId}/booking-without/edit/${b.id}`;
      const res = await app.fetch(`${page}?token=${encodeURIComponent(b.edit_token)}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(page);
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      const cookies = res.headers.getSetCookie();
      expect(cookies).toHaveLength(2);
      for (const c of cookies) {
        expect(c).toMatch(/HttpOnly/i);
        expect(c).toMatch(/SameSite=Lax/i);
        const maxAge = Number(/Max-Age=(\d+)/i.exec(c)![1]);
        expect(maxAge).toBeGreaterThan(0);
        expect(maxAge).toBeLessThanOrEqual(3600);
      }
      expect(cookies.map((c) => /Path=([^;]+)/i.exec(c)![1]).sort()).toEqual([`/api/guest-bookings/${b.id}`, page].sort());
      const cookie = `sugu_guest_page=${encodeURIComponent(b.edit_token)}`;
      const opened = await app.fetch(page, { cookie, headers: { 'accept-language': 'ja' } });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('referrer-policy')).toBe('same-origin');
      const html = await opened.text();
      expect(html).toContain(b.code);
      expect(html).not.toContain(b.edit_token);

      for (const bad of [
        `${page}?token=wrong`,
        `${page}?token=`,
        page,
        `/store/${fx.storeId}/booking-without/edit/${b.id + 1000}?token=${b.edit_token}`,
        `/store/${fx.tinyStoreId}/booking-without/edit/${b.id}?token=${b.edit_token}`,
      ]) {
        const r = await app.fetch(bad, { headers: { 'accept-language': 'ja' } });
        expect([bad, r.status]).toEqual([bad, 404]);
        expect(r.headers.getSetCookie()).toHaveLength(0);
        expect(await r.text()).toContain('リンクが無効か期限切れです');
      }
    });

    it('guest edit page by plain form: the cancel confirmation restates the policy, a change is saved, a cross-site or Origin: null post is refused, a same-origin one cancels', async () => {
      const b = (await (await guestBook({ store_id: fx.storeId, start: tokyoStart(11, 18), party_size: 2 })).json()) as Json;
      const page = `/store/${fx.storeId}/booking-without/edit/${b.id}`;
      const cookie = `sugu_guest_page=${encodeURIComponent(b.edit_token)}; sugu_guest=${encodeURIComponent(b.edit_token)}`;
      const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
        app.fetch(page, {
          method: 'POST',
          cookie,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja', ...headers },
          body: new URLSearchParams(fields).toString(),
        });
      const status = async () =>
        ((await (await app.fetch(`/api/guest-bookings/${b.id}`, { headers: { 'x-booking-token': b.edit_token } })).json()) as Json).status;

      const asked = await post({ intent: 'ask-cancel' });
      expect(asked.status).toBe(200);
      const html = await asked.text();
      expect(html).toContain('role="alertdialog"');
      expect(html).toContain('キャンセルポリシー');
      expect(html).toContain('value="cancel"');

      const saved = await post({ intent: 'book', date: b.start.slice(0, 10), start: b.start, party_size: '2', note: '窓側' });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe(`${page}?done=saved`);
      expect(((await (await app.fetch(`/api/guest-bookings/${b.id}`, { headers: { 'x-booking-token': b.edit_token } })).json()) as Json).note).toBe('窓側');

      for (const origin of ['null', 'https://evil.example']) expect((await post({ intent: 'cancel' }, { origin })).status).toBe(403);
      expect(await status()).toBe('confirmed');
      const cancelled = await post({ intent: 'cancel' });
      expect(cancelled.status).toBe(303);
      expect(cancelled.headers.get('location')).toBe(`${page}?done=cancelled`);
      expect(await status()).toBe('cancelled');
      // Without the page's cookie the form changes nothing.
      const stranger = await app.fetch(page, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'intent=cancel' });
      expect(stranger.status).toBe(404);
    });

    it('pages: the booking pages need sign-in, the guest page and the history do not', async () => {
      expect((await app.fetch(`/store/${fx.storeId}/booking`)).status).toBe(302);
      expect((await app.fetch(`/store/${fx.storeId}/booking`, { cookie: as(0) })).status).toBe(200);
      expect((await app.fetch(`/store/${fx.storeId}/booking-without`)).status).toBe(200);
      expect((await app.fetch(`/store/99999999/booking-without`)).status).toBe(404);
      expect((await app.fetch('/booking-list')).status).toBe(200);
      const mine = (await (await book(0, { store_id: fx.storeId, start: tokyoStart(11, 12), party_size: 2 })).json()) as Json;
      const list = await (await app.fetch('/booking-list', { cookie: as(0) })).text();
      expect(list).toContain(mine.code);
      expect((await app.fetch(`/store/${fx.storeId}/booking/edit/${mine.id}`, { cookie: as(0) })).status).toBe(200);
      expect((await app.fetch(`/store/${fx.storeId}/booking/edit/${mine.id}`, { cookie: as(1) })).status).toBe(404);
      expect((await app.fetch(`/store/${fx.storeId}/booking/complete/${mine.id}`, { cookie: as(1) })).status).toBe(404);
      const slots = (await (await app.fetch(`/api/stores/${fx.storeId}/availability?date=${mine.start.slice(0, 10)}&party=2`)).json()) as Json;
      expect(slots.slots.find((s: Json) => s.start === mine.start).free_tables).toBe(3);
    });

    describe('bad input → 4xx envelope naming the field, nothing written', () => {
      const now = Date.now();
      const cases: Array<[string, Json, number, string]> = [
        ['past start', { start: new Date(Math.floor((now - 3600_000) / 900_000) * 900_000).toISOString() }, 400, 'start'],
        ['unaligned start', { start: tokyoStart(2, 19, 7) }, 400, 'start'],
        ['start 14 days ahead', { start: tokyoStart(14, 12) }, 400, 'start'],
        ['start without offset', { start: '2026-11-21T19:00:00' }, 400, 'start'],
        ['start not a date', { start: 'tomorrow' }, 400, 'start'],
        ['party 0', { party_size: 0 }, 400, 'party_size'],
        ['party above the largest table', { party_size: 7 }, 400, 'party_size'],
        ['party above 20', { party_size: 21 }, 400, 'party_size'],
        ['party not a number', { party_size: '2' }, 400, 'party_size'],
        ['unknown store', { store_id: 99999999 }, 404, 'store_id'],
        ['store id as text', { store_id: '1; drop table bookings' }, 400, 'store_id'],
        ['overlong note', { note: 'あ'.repeat(201) }, 400, 'note'],
        ['unknown seat', { seat_preference: 'roof' }, 400, 'seat_preference'],
      ];
      it.each(cases)('%s', async (_label, patch, status, field) => {
        const before = await countAll();
        const res = await book(0, { store_id: fx.storeId, start: tokyoStart(9, 18), party_size: 2, ...patch });
        expect(res.status).toBe(status);
        const body = (await res.json()) as Json;
        expect(body.error.fields?.[field]).toBeTruthy();
        expect(typeof body.error.message).toBe('string');
        expect(await countAll()).toBe(before);
      });

      it('guest fields are checked with messages in the diner’s language', async () => {
        const res = await app.fetch('/api/guest-bookings', {
          method: 'POST',
          headers: { 'accept-language': 'ja' },
          json: { store_id: fx.storeId, start: tokyoStart(9, 18), party_size: 2, name: '', name_kana: 'Yamada', phone: '12345', email: 'nope' },
        });
        expect(res.status).toBe(400);
        const { error } = (await res.json()) as Json;
        expect(Object.keys(error.fields).sort()).toEqual(['email', 'name', 'name_kana', 'phone']);
        expect(error.fields.name_kana).toContain('カタカナ');
        expect(error.fields.phone).toContain('電話番号');
        const en = await app.fetch('/api/guest-bookings', {
          method: 'POST',
          headers: { 'accept-language': 'en' },
          json: { store_id: fx.storeId, start: tokyoStart(9, 18), party_size: 2, ...guest, name_kana: 'Yamada' },
        });
        expect(((await en.json()) as Json).error.fields.name_kana).toContain('katakana');
      });

      it('malformed JSON and an empty edit are refused', async () => {
        const res = await app.fetch('/api/bookings', { method: 'POST', cookie: as(0), headers: { 'content-type': 'application/json' }, body: '{"store_id":' });
        expect(res.status).toBe(400);
        expect(((await res.json()) as Json).error.code).toBe('invalid_json');
        const b = (await (await book(0, { store_id: fx.storeId, start: tokyoStart(10, 18), party_size: 2 })).json()) as Json;
        const empty = await app.fetch(`/api/bookings/${b.id}`, { method: 'PATCH', cookie: as(0), json: {} });
        expect(empty.status).toBe(400);
        const past = await app.fetch(`/api/bookings/${b.id}`, { method: 'PATCH', cookie: as(0), json: { start: tokyoStart(10, 18, 5) } });
        expect(past.status).toBe(400);
        expect(((await past.json()) as Json).error.fields.start).toBeTruthy();
      });
    });
  });
}
