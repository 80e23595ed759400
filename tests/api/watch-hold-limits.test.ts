/**
 * A hold's claim is a booking, so it counts against the diner's booking limits like any other
 * (BOOKINGS_PER_CONTACT, here 2 a day so that the test reaches it quickly): a diner at their limit
 * who claims the start held for them gets the refusal booking directly gives (429 `rate_limited`,
 * the same message, Retry-After), on the API and on the hold page's plain form, and the hold stays
 * theirs (still offered, the table still out of the listing) until its deadline. A signed-in diner
 * is held to their account's count; a guest to their address's (the watch's), as a guest booking is.
 * On both engines, through a real server on a controlled clock (tomorrow 20:07, the watched start 20:30,
 * then 21:30 for the guest).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedTo, until, type App, type Engine } from '../helpers/app';
import { signUp } from '../helpers/auth';
import { SseStream } from './live-sse';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import type { WatchAlert } from '../../src/lib/contract/watches';

type Json = Record<string, any>;
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 20 * 60 + 7);
const START = toTokyoIso(tokyoInstant(day, 20 * 60 + 30));
/** The guest's start: after the first test's booking of the tiny store's table (20:30, two hours) ends. */
const GUEST_START = toTokyoIso(tokyoInstant(day, 22 * 60 + 30));
const GUEST_UNTIL = toTokyoIso(tokyoInstant(day, 22 * 60 + 31));
/** The fixture's tiny store has one table, for up to 2. */
const PARTY = 2;

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`a hold's claim within the booking limits [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, { SUGU_CLOCK: clockAt.toISOString(), BOOKINGS_PER_CONTACT: '2' }));
    });
    afterAll(() => cleanup?.());

    const freeTables = async (start: string) => {
      const res = await app.fetch(`/api/stores/${fx.tinyStoreId}/availability?party=${PARTY}&date=${day}`);
      expect(res.status).toBe(200);
      const { slots } = (await res.json()) as { slots: { start: string; free_tables: number }[] };
      return slots.find((s) => Date.parse(s.start) === Date.parse(start))?.free_tables;
    };

    it('a diner at their limit is refused the claim as a direct booking is refused, on the API and the page, and keeps the hold until its deadline', async () => {
      const watcher = await signUp(app);
      const cookie = watcher.jar.header();
      const headers = { 'accept-language': 'ja' };

      // The tiny store's one table taken at 20:30 by someone else; the watcher watches it.
      const taken = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          store_id: fx.tinyStoreId,
          start: START,
          party_size: PARTY,
          name: '先客 太郎',
          name_kana: 'センキャク タロウ',
          phone: '090-2222-3333',
          email: 'first@example.jp',
        },
      });
      expect(taken.status).toBe(201);
      const first = (await taken.json()) as { id: number; edit_token: string };
      expect((await app.fetch('/api/watches', { method: 'POST', cookie, headers, json: { store_id: fx.tinyStoreId, party_size: PARTY } })).status).toBe(201);

      // The watcher books elsewhere up to their limit; one more booking is refused.
      const direct = (days: number) =>
        app.fetch('/api/bookings', { method: 'POST', cookie, headers, json: { store_id: fx.storeId, start: tokyoStart(days, 12), party_size: 2 } });
      expect((await direct(3)).status).toBe(201);
      expect((await direct(4)).status).toBe(201);
      const refusedDirect = await direct(5);
      expect(refusedDirect.status).toBe(429);
      const directError = ((await refusedDirect.json()) as Json).error as { code: string; message: string };
      expect(directError).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('予約') });

      // The start frees: held for the watcher.
      const stream = await SseStream.open(app, '/api/watches/stream', { cookie });
      let alert: WatchAlert;
      try {
        expect((await app.fetch(`/api/guest-bookings/${first.id}`, { method: 'DELETE', headers: { 'x-booking-token': first.edit_token } })).status).toBe(200);
        alert = JSON.parse((await stream.until(() => stream.events.find((e) => e.event === 'watch'), 'watch alert')).data) as WatchAlert;
      } finally {
        stream.close();
      }
      expect(alert.href).toBe(`/watches/hold/${alert.hold_id}`);
      expect(await freeTables(alert.start)).toBe(0);

      // The API's claim: the same refusal as booking directly.
      const claimed = await app.fetch(`/api/watch-holds/${alert.hold_id}/claim`, { method: 'POST', cookie, headers, json: {} });
      expect(claimed.status).toBe(429);
      expect(Number(claimed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await claimed.json()) as Json).error).toMatchObject({ code: directError.code, message: directError.message });

      // The page's plain form: the same message on the page again, the claim button still there.
      const page = await app.fetch(alert.href, {
        method: 'POST',
        cookie,
        headers: { ...headers, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({}),
      });
      expect(page.status).toBe(429);
      const html = await page.text();
      expect(html).toContain(directError.message);
      expect(html).toContain('data-testid="hold-claim"');

      // Still the watcher's: offered, no booking, the table still out of the listing.
      const hold = await app.fetch(`/api/watch-holds/${alert.hold_id}`, { cookie });
      expect(hold.status).toBe(200);
      expect(await hold.json()).toMatchObject({ id: alert.hold_id, state: 'offered', booking_id: null, deadline: alert.deadline });
      expect(await freeTables(alert.start)).toBe(0);
      const mine = (await (await app.fetch('/api/bookings', { cookie })).json()) as { items: { store_id: number }[] };
      expect(mine.items.filter((b) => b.store_id === fx.tinyStoreId)).toEqual([]);
    });

    it("a guest at their address's limit is refused the claim as a guest booking with that address is, and keeps the hold", async () => {
      const headers = { 'accept-language': 'ja' };
      const email = `guest-holder-${engine}@example.jp`;
      const contact = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-7777-0001' };
      // Guest bookings with that address, each from a browser of its own, up to the limit; one more is refused.
      const guestBook = (start: string, phone: string) =>
        app.fetch('/api/guest-bookings', {
          method: 'POST',
          headers,
          json: { store_id: fx.storeId, start, party_size: 2, name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone, email },
        });
      expect((await guestBook(tokyoStart(6, 12), '090-7777-1001')).status).toBe(201);
      expect((await guestBook(tokyoStart(7, 12), '090-7777-1002')).status).toBe(201);
      const refusedDirect = await guestBook(tokyoStart(8, 12), '090-7777-1003');
      expect(refusedDirect.status).toBe(429);
      const directError = ((await refusedDirect.json()) as Json).error as { code: string; message: string };
      expect(directError.code).toBe('rate_limited');

      // The tiny store's table taken at 22:30; the guest watches it from their browser and confirms their address.
      const taken = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          store_id: fx.tinyStoreId,
          start: GUEST_START,
          party_size: PARTY,
          name: '先客 次郎',
          name_kana: 'センキャク ジロウ',
          phone: '090-2222-4444',
          email: 'second@example.jp',
        },
      });
      expect(taken.status).toBe(201);
      const first = (await taken.json()) as { id: number; edit_token: string };
      const watched = await app.fetch('/api/watches', {
        method: 'POST',
        headers,
        json: { store_id: fx.tinyStoreId, party_size: PARTY, email, from: GUEST_START, until: GUEST_UNTIL },
      });
      expect(watched.status, await watched.clone().text()).toBe(201);
      const cookie = watched.headers
        .getSetCookie()
        .find((c) => c.startsWith('sugu_watch='))!
        .split(';')[0]!;
      const link = await until(
        async () =>
          mailedTo(app, email)
            .map((m) => /\/watches\/confirm\?token=([\w-]+)/.exec(m.text)?.[1])
            .find(Boolean),
        'the confirmation mail',
      );
      expect((await app.fetch('/api/watches/confirm', { method: 'POST', headers, json: { token: link } })).status).toBe(204);

      const stream = await SseStream.open(app, '/api/watches/stream', { cookie });
      let alert: WatchAlert;
      try {
        expect((await app.fetch(`/api/guest-bookings/${first.id}`, { method: 'DELETE', headers: { 'x-booking-token': first.edit_token } })).status).toBe(200);
        alert = JSON.parse((await stream.until(() => stream.events.find((e) => e.event === 'watch'), 'watch alert')).data) as WatchAlert;
      } finally {
        stream.close();
      }
      expect(alert.hold_id).toBeGreaterThan(0);

      // The API's claim with the contact a guest booking takes: the same refusal as the guest booking.
      const claimed = await app.fetch(`/api/watch-holds/${alert.hold_id}/claim`, { method: 'POST', cookie, headers, json: contact });
      expect(claimed.status).toBe(429);
      expect(((await claimed.json()) as Json).error).toMatchObject({ code: directError.code, message: directError.message });
      // The page's plain form: the message, and what was typed kept.
      const page = await app.fetch(alert.href, {
        method: 'POST',
        cookie,
        headers: { ...headers, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(contact),
      });
      expect(page.status).toBe(429);
      const html = await page.text();
      expect(html).toContain(directError.message);
      expect(html).toContain(`value="${contact.name_kana}"`);

      const hold = await app.fetch(`/api/watch-holds/${alert.hold_id}`, { cookie });
      expect(await hold.json()).toMatchObject({ id: alert.hold_id, state: 'offered', booking_id: null });
      expect(await freeTables(alert.start)).toBe(0);
    });
  });
}
