/**
 * 利用規約 第4条 (no two bookings for one time slot) on both engines: a second booking by the same
 * diner at the same store overlapping in time is refused with 409 `duplicate_booking` — the same
 * account (linked to its first booking), or a guest with the same phone number (full-width digits
 * and dashes as typed) or e-mail address (any case), who is told only that such a booking exists.
 * A booking that does not overlap, at another store, or after the first was cancelled is allowed.
 * One device (the `sugu_device` cookie) is one diner too, whatever names it books under: refused
 * by every way in (JSON, the guest and signed-in forms, a change), linked to the first booking,
 * which that device can open; the booking keeps only the device id's hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CookieJar, type App } from '../helpers/app';
import { openDb } from '../../src/server/db/client';
import { bookings, eq, startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

type Json = Record<string, any>;
let serial = 0;
const diner = () => {
  const n = ++serial;
  return { name: '鈴木 一郎', name_kana: 'スズキ イチロウ', phone: `080-${2000 + n}-${7000 + n}`, email: `dup-${process.pid}-${n}@example.jp` };
};
/** Full-width digits and the dashes an IME types, as a phone field receives them. */
const fullWidth = (s: string) => s.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0)).replace(/-/g, 'ー');

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`duplicate bookings [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    let databaseUrl: string | undefined;
    beforeAll(async () => {
      ({ app, fx, cleanup, databaseUrl } = await startWithFixture(engine));
    });
    afterAll(() => cleanup?.());

    const as = (n: 0 | 1) => fx.users[n]!.cookie;
    const book = (n: 0 | 1, body: Json) => app.fetch('/api/bookings', { method: 'POST', json: body, cookie: as(n), headers: { 'accept-language': 'ja' } });
    const guestBook = (body: Json) => app.fetch('/api/guest-bookings', { method: 'POST', json: body, headers: { 'accept-language': 'ja' } });

    it('an account: an overlapping second booking at the store is 409 duplicate_booking with a link to the first; one after it, and another account, may book', async () => {
      const first = await book(0, { store_id: fx.storeId, start: tokyoStart(2, 18), party_size: 2 });
      expect(first.status).toBe(201);
      const b = (await first.json()) as Json;
      const second = await book(0, { store_id: fx.storeId, start: tokyoStart(2, 19, 45), party_size: 3 });
      expect(second.status).toBe(409);
      const e = ((await second.json()) as Json).error;
      expect(e.code).toBe('duplicate_booking');
      expect(e.message).toBe('このお店には、時間の重なるご予約がすでにあります。同じ時間帯の重複予約はできません。');
      expect(e.booking_url).toBe(`/store/${fx.storeId}/booking/edit/${b.id}`);
      // The link opens the first booking's page.
      expect((await app.fetch(e.booking_url, { cookie: as(0) })).status).toBe(200);
      // English too.
      const en = await app.fetch('/api/bookings', {
        method: 'POST',
        json: { store_id: fx.storeId, start: tokyoStart(2, 17), party_size: 2 },
        cookie: as(0),
        headers: { 'accept-language': 'en' },
      });
      expect(((await en.json()) as Json).error.message).toMatch(/already have a booking at this restaurant/);
      // The stay is 18:00–20:00: from 20:00 on is not an overlap.
      expect((await book(0, { store_id: fx.storeId, start: tokyoStart(2, 20), party_size: 2 })).status).toBe(201);
      expect((await book(1, { store_id: fx.storeId, start: tokyoStart(2, 18), party_size: 2 })).status).toBe(201);
      // Another store at the same time is another plan.
      expect((await book(0, { store_id: fx.tinyStoreId, start: tokyoStart(2, 18), party_size: 2 })).status).toBe(201);
    });

    it('a guest with the same phone number, typed in full-width digits with dashes, is refused without being told anything of the first booking', async () => {
      const d = diner();
      const first = await guestBook({ ...d, store_id: fx.storeId, start: tokyoStart(3, 18), party_size: 2 });
      expect(first.status).toBe(201);
      const b = (await first.json()) as Json;
      const again = await guestBook({
        ...d,
        phone: fullWidth(d.phone),
        email: `other-${d.email}`,
        store_id: fx.storeId,
        start: tokyoStart(3, 18, 30),
        party_size: 4,
      });
      expect(again.status).toBe(409);
      const text = await again.text();
      const e = (JSON.parse(text) as Json).error;
      expect(e.code).toBe('duplicate_booking');
      expect(e.message).toBe('同じ連絡先で、このお店の時間の重なるご予約がすでにあります。確認メールのリンクから、そのご予約の確認・変更ができます。');
      expect(e.booking_url).toBeUndefined();
      for (const secret of [b.code, String(b.id), b.start, b.edit_token, d.email, d.name]) expect(text).not.toContain(secret);
    });

    it('a guest with the same e-mail address in another case is refused; after cancelling the first, the second is allowed', async () => {
      const d = diner();
      const first = (await (await guestBook({ ...d, store_id: fx.storeId, start: tokyoStart(4, 12), party_size: 2 })).json()) as Json;
      const other = { ...diner(), email: d.email.toUpperCase() };
      const again = await guestBook({ ...other, store_id: fx.storeId, start: tokyoStart(4, 13), party_size: 2 });
      expect(again.status).toBe(409);
      expect(((await again.json()) as Json).error.code).toBe('duplicate_booking');
      // Not overlapping (12:00–14:00, then 15:00–17:00) is fine.
      expect((await guestBook({ ...other, store_id: fx.storeId, start: tokyoStart(4, 15), party_size: 2 })).status).toBe(201);
      const cancel = await app.fetch(`/api/guest-bookings/${first.id}`, { method: 'DELETE', headers: { 'x-booking-token': first.edit_token } });
      expect(cancel.status).toBe(200);
      expect((await guestBook({ ...other, store_id: fx.storeId, start: tokyoStart(4, 13), party_size: 2 })).status).toBe(201);
    });

    it('without JavaScript the form says so with the message (409) and keeps what was typed; an account gets the link to its first booking', async () => {
      const d = diner();
      const start = tokyoStart(5, 18);
      expect((await guestBook({ ...d, store_id: fx.storeId, start, party_size: 2 })).status).toBe(201);
      const form = new URLSearchParams({
        intent: 'book',
        date: '',
        start,
        party_size: '2',
        seat_preference: '',
        note: '記念日',
        ...d,
        phone: fullWidth(d.phone),
      });
      const posted = await app.fetch(`/store/${fx.storeId}/booking-without`, {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
      });
      expect(posted.status).toBe(409);
      const html = await posted.text();
      expect(html).toContain('同じ連絡先で、このお店の時間の重なるご予約がすでにあります。');
      expect(html).toContain('記念日');
      expect(html).not.toContain('data-testid="first-booking"');

      const mine = (await (await book(1, { store_id: fx.storeId, start: tokyoStart(5, 12), party_size: 2 })).json()) as Json;
      const signed = new URLSearchParams({ intent: 'book', date: '', start: tokyoStart(5, 13), party_size: '2', seat_preference: '', note: '' });
      const res = await app.fetch(`/store/${fx.storeId}/booking`, {
        method: 'POST',
        body: signed,
        cookie: as(1),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
      });
      expect(res.status).toBe(409);
      const page = await res.text();
      expect(page).toContain('このお店には、時間の重なるご予約がすでにあります。');
      expect(page).toContain(`href="/store/${fx.storeId}/booking/edit/${mine.id}"`);
    });

    const DUPLICATE = 'このお店には、時間の重なるご予約がすでにあります。同じ時間帯の重複予約はできません。';
    const formPost = (path: string, form: URLSearchParams, cookie?: string) =>
      app.fetch(path, { method: 'POST', body: form, cookie, headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' } });
    /** A first guest booking, and the browser that made it (its device and the booking's cookies). */
    const firstFromDevice = async (start: string) => {
      const res = await guestBook({ ...diner(), store_id: fx.storeId, start, party_size: 2 });
      expect(res.status).toBe(201);
      const jar = new CookieJar().store(res);
      const device = jar.get('sugu_device')!;
      expect(device).toMatch(/^[\w-]{22}$/);
      return { b: (await res.json()) as Json, jar, device };
    };

    it('one device, other names, phone and e-mail: an overlapping guest booking is 409 with the message and a link that device can open; another device, or a time not overlapping, books', async () => {
      const { b, jar, device } = await firstFromDevice(tokyoStart(6, 18));
      const fromDevice = (body: Json) =>
        app.fetch('/api/guest-bookings', { method: 'POST', json: body, cookie: `sugu_device=${device}`, headers: { 'accept-language': 'ja' } });
      const again = await fromDevice({ ...diner(), store_id: fx.storeId, start: tokyoStart(6, 19), party_size: 3 });
      expect(again.status).toBe(409);
      const e = ((await again.json()) as Json).error;
      expect(e.code).toBe('duplicate_booking');
      expect(e.message).toBe(DUPLICATE);
      expect(e.booking_url).toBe(`/store/${fx.storeId}/booking-without/edit/${b.id}`);
      // The first booking's page opens in the browser that made it, and nowhere else.
      expect((await app.fetch(e.booking_url, { cookie: jar.header() })).status).toBe(200);
      expect((await app.fetch(e.booking_url)).status).toBe(404);
      // Another device at the same time books; this device once the first stay (18:00–20:00) is over.
      expect((await guestBook({ ...diner(), store_id: fx.storeId, start: tokyoStart(6, 19), party_size: 3 })).status).toBe(201);
      expect((await fromDevice({ ...diner(), store_id: fx.storeId, start: tokyoStart(6, 20), party_size: 2 })).status).toBe(201);
      // Another store at the same time is another plan.
      expect((await fromDevice({ ...diner(), store_id: fx.tinyStoreId, start: tokyoStart(6, 18), party_size: 2 })).status).toBe(201);
    });

    it('one device: the guest form without JavaScript, the signed-in form and API, and a change onto the time are refused the same way', async () => {
      const { b, device } = await firstFromDevice(tokyoStart(7, 12));
      const link = `/store/${fx.storeId}/booking-without/edit/${b.id}`;
      const d = diner();
      const guestForm = new URLSearchParams({
        intent: 'book',
        date: '',
        start: tokyoStart(7, 13),
        party_size: '2',
        seat_preference: '',
        note: '窓際希望',
        ...d,
      });
      const posted = await formPost(`/store/${fx.storeId}/booking-without`, guestForm, `sugu_device=${device}`);
      expect(posted.status).toBe(409);
      const html = await posted.text();
      expect(html).toContain(DUPLICATE);
      expect(html).toContain(`href="${link}"`);
      // Nothing typed is lost.
      for (const typed of [d.name, d.email, '窓際希望']) expect(html).toContain(typed);

      // Signed in on that device (another account): the form and the API.
      const signed = new URLSearchParams({ intent: 'book', date: '', start: tokyoStart(7, 12, 30), party_size: '2', seat_preference: '', note: '' });
      const res = await formPost(`/store/${fx.storeId}/booking`, signed, `${as(0)}; sugu_device=${device}`);
      expect(res.status).toBe(409);
      const page = await res.text();
      expect(page).toContain(DUPLICATE);
      expect(page).toContain(`href="${link}"`);
      const api = await app.fetch('/api/bookings', {
        method: 'POST',
        json: { store_id: fx.storeId, start: tokyoStart(7, 13), party_size: 2 },
        cookie: `${as(0)}; sugu_device=${device}`,
        headers: { 'accept-language': 'ja' },
      });
      expect(api.status).toBe(409);
      expect(((await api.json()) as Json).error).toMatchObject({ code: 'duplicate_booking', message: DUPLICATE, booking_url: link });

      // The same guest form from another browser books (to its result page).
      const elsewhere = await formPost(`/store/${fx.storeId}/booking-without`, guestForm);
      expect(elsewhere.status).toBe(303);
      expect(elsewhere.headers.get('location')).toMatch(new RegExp(`^/store/${fx.storeId}/booking-without/complete/\\d+$`));

      // A later booking from the device, then moved onto the first's time: refused, and left where it was.
      const later = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...diner(), store_id: fx.storeId, start: tokyoStart(7, 15), party_size: 2 },
        cookie: `sugu_device=${device}`,
      });
      expect(later.status).toBe(201);
      const l = (await later.json()) as Json;
      const move = (start: string) =>
        app.fetch(`/api/guest-bookings/${l.id}`, { method: 'PATCH', json: { start }, headers: { 'x-booking-token': l.edit_token, 'accept-language': 'ja' } });
      const moved = await move(tokyoStart(7, 13));
      expect(moved.status).toBe(409);
      expect(((await moved.json()) as Json).error).toMatchObject({ code: 'duplicate_booking', message: DUPLICATE, booking_url: link });
      const still = (await (await app.fetch(`/api/guest-bookings/${l.id}`, { headers: { 'x-booking-token': l.edit_token } })).json()) as Json;
      expect(Date.parse(still.start)).toBe(Date.parse(tokyoStart(7, 15)));
      // A move that overlaps nothing of this diner's is fine.
      expect((await move(tokyoStart(7, 16))).status).toBe(200);
    });

    it.runIf(engine === 'postgres')('keeps the hash of the device id on the booking, never the id', async () => {
      const { b, device } = await firstFromDevice(tokyoStart(8, 12));
      const h = await openDb({ databaseUrl: databaseUrl!, max: 1 });
      try {
        const [row] = await h.db.select({ device: bookings.deviceHash }).from(bookings).where(eq(bookings.id, b.id));
        expect(row!.device).toBe(createHash('sha256').update(`device:${device}`).digest('hex'));
      } finally {
        await h.close();
      }
    });
  });
}
