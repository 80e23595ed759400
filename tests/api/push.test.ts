/**
 * Web Push against a real server on both engines, delivered to a push service of the test's own
 * (tests/helpers/push.ts) that decrypts each message as a browser would (RFC 8291) and checks its
 * VAPID signature (RFC 8292): a freed start held for a watcher reaches the account's devices, and the
 * guest device that made its watch once it passes to them, with the store's name, the time and the
 * deadline and nothing of the diner;
 * a device whose push service answers 410 is removed. The endpoint rule, owners and removal are
 * checked on a server without the test's allowance for local endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachApp, mailedTo, until, type App, type Engine } from '../helpers/app';
import { signUp } from '../helpers/auth';
import { startPushService, verifyVapid, type TestPushService } from '../helpers/push';
import { startWithFixture } from './booking-fixtures';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import type { PushPayload } from '../../src/lib/contract/push';

// Tomorrow at 20:07 Tokyo, as in the watch alerts' test: the freed start is within its hour.
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 20 * 60 + 7);
const START = toTokyoIso(tokyoInstant(day, 20 * 60 + 30));
const PARTY = 2;

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`web push [${engine}]`, () => {
    let app: App;
    let cleanup: () => Promise<void>;
    let storeId: number;
    let push: TestPushService;
    beforeAll(async () => {
      push = await startPushService();
      const started = await startWithFixture(engine, { SUGU_CLOCK: clockAt.toISOString(), PUSH_ALLOW_LOCAL_ENDPOINTS: '1' });
      ({ app, cleanup } = started);
      storeId = started.fx.tinyStoreId;
    });
    afterAll(async () => {
      await cleanup?.();
      await push?.close();
    });

    it('a freed start held for a watcher is pushed, encrypted and signed, to its devices, and to the guest’s when it passes to them; a 410 removes that device', async () => {
      const watcher = await signUp(app);
      const cookie = watcher.jar.header();
      const phone = push.browser('/ok/phone');
      const old = push.browser('/gone/old-tablet');
      push.answer('/gone/old-tablet', 410);
      const guestBrowser = push.browser('/ok/guest');

      const subscribe = (body: object, headers: Record<string, string>) =>
        app.fetch('/api/push/subscriptions', { method: 'POST', json: body, headers: { 'accept-language': 'ja', ...headers } });
      expect((await subscribe(phone.subscription, {})).status).toBe(401);
      const mine = await subscribe({ ...phone.subscription, label: 'Chrome / Android' }, { cookie });
      expect(mine.status).toBe(201);
      expect(await mine.json()).toMatchObject({ label: 'Chrome / Android' });
      expect((await subscribe(old.subscription, { cookie })).status).toBe(201);
      const listed = async () => ((await (await app.fetch('/api/push/subscriptions', { cookie })).json()) as { items: { id: number; label: string }[] }).items;
      expect((await listed()).map((d) => d.label)).toEqual(['Chrome / Android', '']);

      // The single table taken, then watched by the account and by a guest's device.
      const held = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          store_id: storeId,
          start: START,
          party_size: PARTY,
          name: '先客 太郎',
          name_kana: 'センキャク タロウ',
          phone: '090-2222-3333',
          email: 'first@example.jp',
        },
      });
      expect(held.status).toBe(201);
      const booking = (await held.json()) as { id: number; edit_token: string };
      expect((await app.fetch('/api/watches', { method: 'POST', json: { store_id: storeId, party_size: PARTY }, cookie })).status).toBe(201);
      const guestWatch = await app.fetch('/api/watches', {
        method: 'POST',
        json: { store_id: storeId, party_size: PARTY, email: 'watching-guest@example.jp' },
      });
      expect(guestWatch.status).toBe(201);
      const device = ((await guestWatch.json()) as { device_token: string }).device_token;
      expect((await subscribe(guestBrowser.subscription, { 'x-watch-token': device })).status).toBe(201);
      // A guest's watch tells of nothing until its address is confirmed (the mail's link).
      const confirmLink = await until(
        async () =>
          mailedTo(app, 'watching-guest@example.jp')
            .map((m) => /watches\/confirm\?token=([\w-]+)/.exec(m.text)?.[1])
            .find(Boolean),
        'the watch confirmation mail',
      );
      expect((await app.fetch('/api/watches/confirm', { method: 'POST', json: { token: confirmLink } })).status).toBe(204);

      const cancelled = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
      expect(cancelled.status).toBe(200);

      const at = (path: string) => until(async () => push.received.find((r) => r.path === path), `a push to ${path}`);
      const { public_key } = (await (await app.fetch('/api/push/key')).json()) as { public_key: string };
      const store = ((await (await app.fetch(`/api/stores/${storeId}`)).json()) as { name: string }).name;

      // The table is held for the first watcher (the account): its phones hear of it.
      const toPhone = await at('/ok/phone');
      expect(toPhone.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(toPhone.headers.ttl)).toBeGreaterThan(0);
      expect(verifyVapid(toPhone.headers.authorization, push.url).k).toBe(public_key);
      const text = phone.decrypt(toPhone.body);
      const payload = JSON.parse(text) as PushPayload;
      expect(payload.title).toBe(`${store}の席をお取りしています`);
      expect(payload.body).toMatch(/\d{1,2}:\d{2}〜 \d{1,2}:\d{2}までにタップして確定してください/);
      const holdId = Number(/^\/watches\/hold\/(\d+)$/.exec(new URL(payload.url, app.url).pathname)?.[1]);
      expect(holdId).toBeGreaterThan(0);
      // Nothing of the diner: no address, no name, no booking.
      for (const personal of [watcher.email, watcher.name, 'first@example.jp', '先客', String(booking.id)]) expect(text).not.toContain(personal);
      // Another browser's keys cannot read it.
      expect(() => guestBrowser.decrypt(toPhone.body)).toThrow();

      // The account books the held table and then cancels: the start is offered to the next watcher, the guest.
      const claimed = await app.fetch(`/api/watch-holds/${holdId}/claim`, { method: 'POST', json: {}, cookie });
      expect(claimed.status).toBe(200);
      const mineBooked = ((await claimed.json()) as { booking: { id: number } }).booking;
      expect((await app.fetch(`/api/bookings/${mineBooked.id}`, { method: 'DELETE', cookie })).status).toBe(200);
      const toGuest = await at('/ok/guest');
      const theirs = JSON.parse(guestBrowser.decrypt(toGuest.body)) as PushPayload;
      expect(theirs.title).toBe(`${store}の席をお取りしています`);
      expect(new URL(theirs.url, app.url).pathname).toMatch(/^\/watches\/hold\/\d+$/);
      expect(new URL(theirs.url, app.url).pathname).not.toBe(`/watches/hold/${holdId}`);

      // The push service said the old tablet's subscription is gone: it is no longer listed.
      await at('/gone/old-tablet');
      await until(async () => (await listed()).length === 1, 'the 410 device removed');
      expect((await listed()).map((d) => d.label)).toEqual(['Chrome / Android']);
      expect(app.output()).toMatch(/"msg":"push_subscription_gone"/);
    });
  });
}

forEachApp(
  'push subscriptions',
  (app) => {
    const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
    const sub = (endpoint: string) => ({ endpoint, keys });

    it('takes only https: endpoints on public hosts, with keys of the right size', async () => {
      const { jar } = await signUp(app());
      const post = (body: object) =>
        app().fetch('/api/push/subscriptions', { method: 'POST', json: body, cookie: jar.header(), headers: { 'accept-language': 'ja' } });
      for (const endpoint of [
        'http://push.example.com/x',
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://192.168.0.8/x',
        'https://[::1]/x',
        'https://[fd00::1]/x',
        'https://localhost/x',
        'https://push.localhost/x',
        'https://router/x',
        'https://user:pw@push.example.com/x',
        'ftp://push.example.com/x',
        'not a url',
      ]) {
        const res = await post(sub(endpoint));
        expect(res.status, endpoint).toBe(400);
        expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields.endpoint, endpoint).toBe(
          '通知の送り先に使えないアドレスです（https の公開されたアドレスのみ）',
        );
      }
      const badKeys = await post({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'short', auth: keys.auth } });
      expect(badKeys.status).toBe(400);
      const ok = await post(sub('https://fcm.googleapis.com/fcm/send/abc'));
      expect(ok.status).toBe(201);
    });

    it('lists and removes only the owner’s devices; another’s is 404', async () => {
      const a = await signUp(app());
      const b = await signUp(app());
      const made = await app().fetch('/api/push/subscriptions', {
        method: 'POST',
        json: sub(`https://updates.push.services.mozilla.com/wpush/v2/${a.userId}`),
        cookie: a.jar.header(),
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: number };
      expect((await app().fetch(`/api/push/subscriptions/${id}`, { method: 'DELETE', cookie: b.jar.header() })).status).toBe(404);
      expect(((await (await app().fetch('/api/push/subscriptions', { cookie: b.jar.header() })).json()) as { items: unknown[] }).items).toEqual([]);
      // The account page lists it, and its plain form removes it.
      const page = await (await app().fetch('/account-info', { cookie: a.jar.header() })).text();
      expect(page).toContain(`data-push-id="${id}"`);
      const removed = await app().fetch('/account-info', {
        method: 'POST',
        cookie: a.jar.header(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'push-remove', id: String(id) }),
      });
      expect(removed.status).toBe(303);
      expect(((await (await app().fetch('/api/push/subscriptions', { cookie: a.jar.header() })).json()) as { items: unknown[] }).items).toEqual([]);
      expect((await app().fetch(`/api/push/subscriptions/${id}`, { method: 'DELETE', cookie: a.jar.header() })).status).toBe(404);
    });
  },
  {},
  { shared: true },
);
