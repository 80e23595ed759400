/**
 * A guest's 順番待ち call on the guest's phone, on both engines, with the server's clock set
 * (SUGU_CLOCK) and the test's own push service (tests/helpers/push.ts), which decrypts what it
 * gets as a browser would: the guest's entry page subscribes this browser with the entry's secret
 * token, the store's call reaches it with the store's name and the deadline and nothing of the
 * guest, another guest's token (or none) finds no entry, an account's entry is left to the
 * account's devices, and the subscription goes when the entry ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb, until, type App } from '../helpers/app';
import { signUp } from '../helpers/auth';
import type { Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, takeTinyTable, type StaffFixture } from './store-fixtures';
import { startPushService, type TestPushService } from '../helpers/push';
import { queueJoinedJsonSchema } from '../../src/lib/contract/queue';
import type { PushPayload } from '../../src/lib/contract/push';
import { eveningClock } from '../helpers/clock';

const MIN = 60_000;
const clockAt = eveningClock();
const at = (minutes: number) => new Date(clockAt + minutes * MIN);

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`順番待ち on the guest's phone [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let push: TestPushService;
    let staff: string;

    beforeAll(async () => {
      push = await startPushService();
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: new Date(clockAt).toISOString(), PUSH_ALLOW_LOCAL_ENDPOINTS: '1' }, async (db, f) => {
        // The tiny store's one table taken, so its queue is open.
        await takeTinyTable(db, f, at(-30), at(90), 'QP');
      }));
      staff = (await staffLogin(app, fx.staffB)).token;
    });
    afterAll(async () => {
      await cleanup?.();
      await push?.close();
    });

    const join = async (name: string, phone: string) => {
      const res = await app.fetch(`/api/stores/${fx.tinyStoreId}/queue`, { method: 'POST', json: { party_size: 2, name, phone } });
      expect(res.status).toBe(201);
      const joined = z.parse(queueJoinedJsonSchema, await res.json());
      return { id: joined.entry.id, token: joined.token! };
    };
    const follow = (id: number, body: object, token?: string) =>
      app.fetch(`/api/queue/${id}/push`, {
        method: 'POST',
        json: body,
        headers: { 'accept-language': 'ja', ...(token === undefined ? {} : { 'x-queue-token': token }) },
      });
    const followers = async (id: number) => {
      const h = await openAppDb(app);
      try {
        return (await h.sql`select count(*)::int as n from push_subscriptions where queue_entry_id = ${id}`)[0]!.n as number;
      } finally {
        await h.close();
      }
    };

    it('the call reaches the phone the guest subscribed from the entry’s page, with nothing of the guest; another guest’s entry is 404', async () => {
      const first = await join('順番 一郎', '090-7777-1001');
      const second = await join('順番 二郎', '090-7777-1002');
      const phone = push.browser(`/${engine}/first`);
      // No token, another guest's token, keys no browser makes: refused, nothing kept.
      expect((await follow(first.id, phone.subscription)).status).toBe(404);
      expect((await follow(first.id, phone.subscription, second.token)).status).toBe(404);
      const bad = await follow(first.id, { ...phone.subscription, keys: { p256dh: 'short', auth: 'short' } }, first.token);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { code: 'validation_failed', fields: { 'keys.p256dh': expect.stringContaining('keys.p256dh') } } });
      const saved = await follow(first.id, { ...phone.subscription, label: 'Chrome / Android' }, first.token);
      expect(saved.status).toBe(201);
      expect(await saved.json()).toMatchObject({ label: 'Chrome / Android' });

      const called = await app.fetch(`/api/store/queue/${first.id}/call`, { method: 'POST', headers: bearer(staff) });
      expect(called.status).toBe(200);
      const got = await until(async () => push.received.find((r) => r.path === `/${engine}/first`), 'the call pushed to the guest’s phone');
      const text = phone.decrypt(got.body);
      const payload = JSON.parse(text) as PushPayload;
      const store = ((await (await app.fetch(`/api/stores/${fx.tinyStoreId}`)).json()) as { name: string }).name;
      expect(payload).toMatchObject({ title: `${store}: お席の準備ができました`, url: `/queue/${first.id}` });
      expect(payload.body).toMatch(/\d{1,2}:\d{2}までに「席に向かいます」で確定してください/);
      for (const personal of ['順番', '090', '7777', first.token]) expect(text).not.toContain(personal);
      // The other guest's entry was not called: its phone heard nothing.
      expect(push.received.filter((r) => r.path.startsWith(`/${engine}/`)).map((r) => r.path)).toEqual([`/${engine}/first`]);

      // Seated at the door: the entry has ended, and so has its subscription.
      expect((await app.fetch(`/api/store/queue/${first.id}/seat`, { method: 'POST', headers: bearer(staff) })).status).toBe(200);
      if (engine === 'postgres') expect(await followers(first.id)).toBe(0);
      const late = await follow(first.id, phone.subscription, first.token);
      expect(late.status).toBe(409);
      expect(await late.json()).toMatchObject({ error: { code: 'queue_state' } });
    });

    it('an account’s entry is not followed this way: the account’s devices get its call', async () => {
      const diner = await signUp(app);
      const res = await app.fetch(`/api/stores/${fx.tinyStoreId}/queue`, {
        method: 'POST',
        cookie: diner.jar.header(),
        json: { party_size: 2, name: '会員 花子', phone: '090-7777-1004' },
      });
      expect(res.status).toBe(201);
      const entry = z.parse(queueJoinedJsonSchema, await res.json()).entry;
      const followed = await app.fetch(`/api/queue/${entry.id}/push`, {
        method: 'POST',
        cookie: diner.jar.header(),
        json: push.browser(`/${engine}/member`).subscription,
      });
      expect(followed.status).toBe(404);
      expect((await app.fetch(`/api/queue/${entry.id}`, { method: 'DELETE', cookie: diner.jar.header() })).status).toBe(200);
    });

    it('a guest who leaves the queue stops its phone’s subscription', async () => {
      const guest = await join('順番 三郎', '090-7777-1003');
      const phone = push.browser(`/${engine}/leaving`);
      expect((await follow(guest.id, phone.subscription, guest.token)).status).toBe(201);
      if (engine === 'postgres') expect(await followers(guest.id)).toBe(1);
      expect((await app.fetch(`/api/queue/${guest.id}`, { method: 'DELETE', headers: { 'x-queue-token': guest.token } })).status).toBe(200);
      if (engine === 'postgres') expect(await followers(guest.id)).toBe(0);
      expect((await follow(guest.id, phone.subscription, guest.token)).status).toBe(409);
    });
  });
}
