/**
 * The day-of reminder and the 順番待ち's call reach an account's devices on both engines: each job
 * queues a push with the work it reports (in its transaction), and the push worker sends it,
 * encrypted, to a push service of the test's own that decrypts it (tests/helpers/push.ts). Written
 * in the device's language, with the store's name and a time and nothing of the diner.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { forEachEngine } from '../helpers/db';
import { until } from '../helpers/app';
import { startPushService, verifyVapid, type TestPushService } from '../helpers/push';
import { prepare, type Fixture } from './booking-fixtures';
import { book, type BookingContext } from '../../src/server/bookings/http';
import { sendDueReminders } from '../../src/server/bookings/reminders';
import { actOnEntry } from '../../src/server/queue/staff';
import { subscribe } from '../../src/server/push/service';
import { deliverDuePushes } from '../../src/server/push/worker';
import { pushOutbox, queueEntries, stores } from '../../src/server/db/schema';
import { translatorFor } from '../../src/i18n';
import { translate } from '../../src/server/http/api';
import type { Db } from '../../src/server/db/types';
import type { Locale } from '../../src/i18n/locales';
import type { PushPayload } from '../../src/lib/contract/push';

// This process sends the pushes: its own VAPID pair, and the test's endpoint on this machine allowed.
const vapid = webpush.generateVAPIDKeys();
process.env.VAPID_PUBLIC_KEY = vapid.publicKey;
process.env.VAPID_PRIVATE_KEY = vapid.privateKey;
process.env.PUSH_ALLOW_LOCAL_ENDPOINTS = '1';

const ORIGIN = 'https://sugu.test';
const MORNING = new Date('2026-11-20T10:00:00+09:00');
const jst = (hhmm: string) => new Date(`2026-11-20T${hhmm}:00+09:00`);
const ctx = (now: Date, locale: Locale = 'ja'): BookingContext => ({ t: translate(translatorFor(locale)), locale, origin: ORIGIN, now });

let push: TestPushService;
beforeAll(async () => {
  push = await startPushService();
});
afterAll(() => push?.close());

forEachEngine('pushes from the jobs', (get, engine) => {
  let db: Db;
  let fx: Fixture;
  let storeName: string;
  beforeAll(async () => {
    db = get().db;
    fx = await prepare(db);
    [{ name: storeName }] = (await db.select({ name: stores.name }).from(stores).where(eq(stores.id, fx.storeId))) as [{ name: string }];
  });

  const received = (path: string) => until(async () => push.received.find((r) => r.path === path), `a push to ${path}`);

  it('the day-of reminder: to the account’s device in its language, the store and the time', async () => {
    const user = fx.users[0]!;
    const device = push.browser(`/${engine}/reminder`);
    await subscribe(db, translatorFor('en'), { kind: 'user', userId: user.id }, device.subscription, 'en');
    await book(
      db,
      { store_id: fx.storeId, start: jst('19:00').toISOString(), party_size: 2 },
      { kind: 'user', userId: user.id, email: user.email, name: '予約 太郎1' },
      ctx(MORNING),
    );
    expect(await sendDueReminders(db, jst('16:00'), ORIGIN)).toBe(1);
    expect(await db.select().from(pushOutbox)).toHaveLength(1);
    expect(await deliverDuePushes(db)).toEqual({ sent: 1, gone: 0, failed: 0 });
    const got = await received(`/${engine}/reminder`);
    expect(verifyVapid(got.headers.authorization, push.url).k).toBe(vapid.publicKey);
    const text = device.decrypt(got.body);
    const payload = JSON.parse(text) as PushPayload;
    expect(payload).toMatchObject({ title: 'Your booking is coming up', url: '/booking-list' });
    expect(payload.body).toContain(storeName);
    expect(payload.body).toContain('19:00');
    for (const personal of [user.email, '予約 太郎']) expect(text).not.toContain(personal);
    // Sent: nothing left to send.
    expect(await db.select().from(pushOutbox)).toEqual([]);
  });

  it('the 順番待ち’s call: to the waiting account’s device, with the deadline and its page', async () => {
    const user = fx.users[1]!;
    const device = push.browser(`/${engine}/queue`);
    await subscribe(db, translatorFor('ja'), { kind: 'user', userId: user.id }, device.subscription, 'ja');
    const [entry] = await db
      .insert(queueEntries)
      .values({ storeId: fx.storeId, userId: user.id, partySize: 2, name: '順番 花子', phone: '09012345678', joinedAt: jst('18:40') })
      .returning({ id: queueEntries.id });
    await actOnEntry(db, { userId: user.id, email: user.email, tenant: 'test', storeIds: [fx.storeId] }, entry!.id, 'call', jst('19:00'));
    expect(await deliverDuePushes(db)).toEqual({ sent: 1, gone: 0, failed: 0 });
    const text = device.decrypt((await received(`/${engine}/queue`)).body);
    const payload = JSON.parse(text) as PushPayload;
    expect(payload).toMatchObject({ title: `${storeName}: お席の準備ができました`, url: `/queue/${entry!.id}` });
    expect(payload.body).toMatch(/^19:\d\dまでに「席に向かいます」で確定してください$/);
    expect(text).not.toContain('順番 花子');
  });
});
