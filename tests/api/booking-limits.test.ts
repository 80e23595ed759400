/**
 * Booking limits as they ship (GUEST_BOOKINGS_PER_ADDRESS 20 an hour, BOOKINGS_PER_CONTACT 5 a
 * day), on both engines: a burst from one address is refused after 20 while an ordinary diner
 * books; one e-mail, one phone, one device and one account are held to 5 a day; attempts that fail
 * are given back; and no text the booker typed is mailed to the address they typed.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db/client';
import { CookieJar, openAppDb, type App } from '../helpers/app';
import { rawRequest, type RawResponse } from '../helpers/raw';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

const DEFAULTS = { GUEST_BOOKINGS_PER_ADDRESS: '', BOOKINGS_PER_CONTACT: '' };
type Json = Record<string, any>;

/** Distinct starts two hours apart from the day after tomorrow: never the same table twice. */
let nextSlot = 0;
const freshStart = () => {
  const i = nextSlot++;
  return tokyoStart(2 + Math.floor(i / 12), (i % 12) * 2);
};
let serial = 0;
const diner = () => {
  const n = ++serial;
  return {
    name: '予約 花子',
    name_kana: 'ヨヤク ハナコ',
    phone: `090-${String(1000 + n).slice(-4)}-${String(2000 + n).slice(-4)}`,
    email: `diner-${process.pid}-${n}@example.jp`,
  };
};

function guestBooking(app: App, body: Json, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(app, {
    method: 'POST',
    path: '/api/guest-bookings',
    from,
    headers: { 'content-type': 'application/json', origin: app.url, 'accept-language': 'ja', ...headers },
    body: JSON.stringify(body),
  });
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`booking limits [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, DEFAULTS));
    });
    afterAll(() => cleanup?.());
    const book = (from: string, who = diner(), headers: Record<string, string> = {}, start = freshStart()) =>
      guestBooking(app, { store_id: fx.storeId, start, party_size: 2, ...who }, from, headers);

    it('refuses a burst from one address after 20 guest bookings, with Retry-After and a translated message; an ordinary diner still books', async () => {
      const burst = await Promise.all(Array.from({ length: 30 }, () => book('127.0.0.1')));
      const statuses = burst.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      for (const refused of burst.filter((r) => r.status === 429)) {
        const retry = Number(refused.headers['retry-after']);
        expect(retry).toBeGreaterThan(0);
        expect(retry).toBeLessThanOrEqual(3600);
        const { error } = JSON.parse(refused.body) as { error: { code: string; message: string } };
        expect(error.code).toBe('rate_limited');
        expect(error.message).toContain('予約');
      }
      // Still refused after the burst; someone at another address books as usual.
      expect((await book('127.0.0.1')).status).toBe(429);
      const ordinary = await book('127.0.0.2');
      expect(ordinary.status).toBe(201);
      expect(JSON.parse(ordinary.body).edit_token).toBeTruthy();
    });

    it('holds one e-mail, one phone and one device to 5 bookings a day, from any address', async () => {
      const email = diner().email;
      for (let i = 0; i < 5; i++) expect((await book(`127.0.1.${i + 1}`, { ...diner(), email })).status).toBe(201);
      expect((await book('127.0.1.9', { ...diner(), email: email.toUpperCase() })).status).toBe(429);

      const phone = '080-1111-2222';
      for (let i = 0; i < 5; i++) expect((await book(`127.0.2.${i + 1}`, { ...diner(), phone })).status).toBe(201);
      const samePhone = await book('127.0.2.9', { ...diner(), phone: '０８０－１１１１－２２２２' });
      expect(samePhone.status).toBe(429);
      expect(Number(samePhone.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);

      const first = await book('127.0.3.1');
      expect(first.status).toBe(201);
      const device = new CookieJar();
      for (const line of [first.headers['set-cookie'] ?? []].flat()) device.store(new Response(null, { headers: [['set-cookie', line]] }));
      const id = device.get('sugu_device');
      expect(id).toMatch(/^[\w-]{22}$/);
      for (let i = 2; i <= 5; i++) expect((await book(`127.0.3.${i}`, diner(), { cookie: `sugu_device=${id}` })).status).toBe(201);
      expect((await book('127.0.3.9', diner(), { cookie: `sugu_device=${id}` })).status).toBe(429);
    });

    it('gives back attempts that fail, so a diner who loses races can still book', async () => {
      // The tiny store's only table, taken by someone else.
      const start = tokyoStart(12, 20);
      expect((await guestBooking(app, { store_id: fx.tinyStoreId, start, party_size: 2, ...diner() }, '127.0.4.1')).status).toBe(201);
      const me = diner();
      for (let i = 0; i < 5; i++) {
        const lost = await guestBooking(app, { store_id: fx.tinyStoreId, start, party_size: 2, ...me }, '127.0.4.2');
        expect(lost.status).toBe(409);
      }
      for (let i = 0; i < 5; i++) expect((await book('127.0.4.2', me)).status).toBe(201);
      expect((await book('127.0.4.2', me)).status).toBe(429);
    });

    it('holds a signed-in account to 5 bookings a day', async () => {
      const { cookie } = fx.users[1]!;
      const mine = (i: number) =>
        app.fetch('/api/bookings', {
          method: 'POST',
          cookie,
          json: { store_id: fx.storeId, start: tokyoStart(10 + Math.floor(i / 3), 1 + (i % 3) * 6), party_size: 2 },
        });
      for (let i = 0; i < 5; i++) expect((await mine(i)).status).toBe(201);
      const refused = await mine(5);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe(`mail to a typed address [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    let dataDir: string | undefined;
    beforeAll(async () => {
      ({ app, fx, cleanup, dataDir } = await startWithFixture(engine));
    });
    afterAll(() => cleanup?.());

    it('never mails the text a booker typed: the note stays on the booking page', async () => {
      const note = '【当選】賞金の受け取りはこちら https://evil.example/claim';
      const to = `victim-${engine}-${process.pid}@example.jp`;
      const guest = await guestBooking(app, { store_id: fx.storeId, start: tokyoStart(13, 12), party_size: 2, ...diner(), email: to, note });
      expect(guest.status).toBe(201);
      const booked = JSON.parse(guest.body) as Json;
      expect(booked.note).toBe(note); // the booker still sees it
      const mine = await app.fetch('/api/bookings', {
        method: 'POST',
        cookie: fx.users[0]!.cookie,
        headers: { 'accept-language': 'ja' },
        json: { store_id: fx.storeId, start: tokyoStart(13, 16), party_size: 2, note },
      });
      expect(mine.status).toBe(201);
      // The embedded database is locked by its server: read it once the server has stopped.
      const h = engine === 'postgres' ? await openAppDb(app) : (await app.stop(), await openDb({ dataDir: dataDir! }));
      let mails: { to_address: string; body_text: string }[];
      try {
        mails = [
          ...(await h.db.execute<{ to_address: string; body_text: string }>(sql`
          select to_address, body_text from mail_outbox where kind = 'booking_created' and to_address in (${to}, ${fx.users[0]!.email})`)),
        ];
      } finally {
        await h.close();
      }
      expect(mails.map((m) => m.to_address).sort()).toEqual([to, fx.users[0]!.email].sort());
      for (const mail of mails) {
        expect(mail.body_text).not.toContain('evil.example');
        expect(mail.body_text).not.toContain('当選');
        expect(mail.body_text).toContain('ご要望（メモ）は、ご予約内容のページでご確認いただけます。');
      }
    });
  });
}
