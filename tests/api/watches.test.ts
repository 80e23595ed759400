/**
 * Watches (空席通知) on both engines with a controlled clock: a cancellation that frees a start
 * fitting a watch holds it for that watcher and mails them once, nothing for watches it does not
 * fit, none for an expired watch or an unconfirmed guest's; two instances finding the same freed
 * start hold it once; a released block and longer hours fire watches too; bad input is a 4xx
 * naming the field; making watches is limited per address. (The holds themselves:
 * tests/api/watch-holds.test.ts.)
 */
import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { prepare, type Fixture } from './booking-fixtures';
import { book, cancel, type BookingContext } from '../../src/server/bookings/http';
import { availabilityIndex } from '../../src/server/availability';
import { openDb } from '../../src/server/db/client';
import { publicOrigin } from '../../src/server/config';
import { bookings, mailOutbox, storeTables, watchHolds } from '../../src/server/db/schema';
import { createBlock, releaseBlock } from '../../src/server/staff/blocks';
import { setHours } from '../../src/server/staff/hours';
import { translatorFor } from '../../src/i18n';
import { translate, validate } from '../../src/server/http/api';
import { cancelWatch, confirmWatch, createWatch, listWatches } from '../../src/server/watches/service';
import { watchMatcher } from '../../src/server/watches/matcher';
import { offerFreed } from '../../src/server/watches/holds';
import { WATCH_HOLD_MINUTES, watchSchema } from '../../src/lib/contract/watches';
import { WATCHES_ACTIVE_MAX } from '../../src/lib/contract/limits';
import { MINUTE_MS } from '../../src/lib/datetime';
import type { Db } from '../../src/server/db/types';

const t = translatorFor('ja');
const jst = (hhmm: string, day = '2026-11-20') => new Date(`${day}T${hhmm}:00+09:00`);
const client = { ip: '203.0.113.7', origin: 'https://sugu.test', locale: 'ja' };
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'holder@example.jp' };

forEachEngine('watches', (get, engine) => {
  let db: Db;
  let fx: Fixture;
  let now = jst('20:07');
  const ctx = (): BookingContext => ({ t: translate(t), locale: 'ja', origin: client.origin, now });
  const user = (n: 0 | 1) => ({ kind: 'user', userId: fx.users[n]!.id, email: fx.users[n]!.email }) as const;
  const mails = (to: string, kind = 'watch_hold') =>
    db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, kind)));
  let held: { id: number; token: string };

  beforeAll(async () => {
    db = get().db;
    fx = await prepare(db);
    await availabilityIndex(db).view(now);
    const { matcher, loaded } = watchMatcher(db);
    await loaded;
    matcher.clock = () => now;
    // The one table of the tiny store, taken from 21:00: no start before 23:00 fits a stay.
    const b = await book(db, { store_id: fx.tinyStoreId, start: jst('21:00').toISOString(), party_size: 2, ...guest }, { kind: 'guest', token: '' }, ctx());
    held = { id: b.booking.id, token: b.editToken! };
  });

  it('a cancellation holds the earliest freed start for a fitting watch and mails it once, and nobody else', async () => {
    // Fits: the tiny store, 2 people, the next hour (20:07–21:07).
    const mine = await createWatch(db, t, { store_id: fx.tinyStoreId, party_size: 2 }, user(0), client, now);
    expect(mine.watch).toMatchObject({ storeId: fx.tinyStoreId, partySize: 2, startsFrom: now, endsAt: jst('21:07') });
    // Does not fit: another store; a party the store cannot seat; a window over by then; an unconfirmed guest.
    await createWatch(db, t, { store_id: fx.storeId, party_size: 2 }, user(1), client, now);
    await createWatch(db, t, { store_id: fx.tinyStoreId, party_size: 4 }, user(1), client, now);
    await createWatch(db, t, { store_id: fx.tinyStoreId, party_size: 2, until: jst('20:30').toISOString() }, user(1), client, now);
    const unconfirmed = await createWatch(db, t, { store_id: fx.tinyStoreId, party_size: 2, email: 'stranger@example.jp' }, { kind: 'guest' }, client, now);
    expect(unconfirmed.watch.confirmedAt).toBeNull();

    now = jst('20:40');
    await cancel(db, held.id, { kind: 'guest', token: held.token }, ctx());
    await watchMatcher(db).matcher.idle();

    const [mail, ...more] = await mails(fx.users[0]!.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('【すぐ予約】極小バー 20:45の席をあなたのために確保しました');
    expect(mail!.bodyText).toContain('極小バー（2名）に空きが出ました');
    expect(mail!.bodyText).toMatch(/11月20日\(金\) 20:45\n/);
    expect(mail!.bodyText).toContain('20:45までに');
    // The link opens the hold: its own, with a token.
    expect(mail!.bodyText).toMatch(new RegExp(`${publicOrigin()}/watches/hold/\\d+\\?token=[\\w-]+`));
    expect(await mails(fx.users[1]!.email)).toEqual([]);
    expect(await mails('stranger@example.jp')).toEqual([]);
    // The unconfirmed guest got the confirmation mail and nothing else.
    expect(await mails('stranger@example.jp', 'watch_confirm')).toHaveLength(1);
    const rows = await db.select().from(watchHolds).where(eq(watchHolds.watchId, mine.watch.id));
    expect(rows.map((r) => r.startsAt.getTime())).toEqual([jst('20:45').getTime()]);
  });

  it(`two ${engine === 'postgres' ? 'instances' : 'matchers'} finding the same freed start hold it once`, async () => {
    // The other diner: the first holds an offer until 20:45.
    const w = await createWatch(
      db,
      t,
      { store_id: fx.storeId, party_size: 3, from: jst('22:00').toISOString(), until: jst('23:00').toISOString() },
      user(1),
      client,
      now,
    );
    const other = engine === 'postgres' ? await openDb({ databaseUrl: get().location, max: 3 }) : undefined;
    try {
      const freed = [{ watch: { id: w.watch.id }, starts: [jst('22:15').getTime()] }];
      const made = await Promise.all([
        offerFreed(db, fx.storeId, freed, now, client.origin),
        offerFreed(other?.db ?? db, fx.storeId, freed, now, client.origin),
      ]);
      expect(made.flat()).toHaveLength(1);
    } finally {
      await other?.close();
    }
    expect(await db.select().from(watchHolds).where(eq(watchHolds.watchId, w.watch.id))).toHaveLength(1);
    expect((await mails(fx.users[1]!.email)).filter((m) => m.subject.includes('テスト酒場'))).toHaveLength(1);
  });

  it('a guest watch mails only after its address is confirmed; its device lists and cancels it', async () => {
    const made = await createWatch(
      db,
      t,
      { area_id: (await listAreaOf(db, fx.storeId))!, party_size: 2, email: 'guest@example.jp' },
      { kind: 'guest' },
      client,
      now,
    );
    const [confirm] = await mails('guest@example.jp', 'watch_confirm');
    const token = confirm!.bodyText.match(/\/watches\/confirm\?token=([\w-]+)/)![1]!;
    expect(await offerFreed(db, fx.storeId, [{ watch: { id: made.watch.id }, starts: [jst('23:00').getTime()] }], now, client.origin)).toEqual([]);
    expect(await confirmWatch(db, token, now)).toBe(true);
    expect(await confirmWatch(db, token, now)).toBe(false);
    expect(await offerFreed(db, fx.storeId, [{ watch: { id: made.watch.id }, starts: [jst('23:15').getTime()] }], now, client.origin)).toHaveLength(1);
    const device = { kind: 'device', token: made.deviceToken! } as const;
    expect((await listWatches(db, device, now)).map((w) => w.id)).toEqual([made.watch.id]);
    await expect(cancelWatch(db, made.watch.id, { kind: 'device', token: 'someone-else' }, now)).rejects.toMatchObject({ status: 404 });
    await expect(cancelWatch(db, made.watch.id, user(0), now)).rejects.toMatchObject({ status: 404 });
    await cancelWatch(db, made.watch.id, device, now);
    expect(await listWatches(db, device, now)).toEqual([]);
  });

  it("a new business day's snapshot fires the watches its free starts fit, which the one before did not", async () => {
    const day = '2026-11-21';
    const b = await book(
      db,
      { store_id: fx.tinyStoreId, start: jst('06:00', day).toISOString(), party_size: 2, ...guest, email: 'morning@example.jp' },
      { kind: 'guest', token: '' },
      ctx(),
    );
    const w = await createWatch(
      db,
      t,
      { store_id: fx.tinyStoreId, party_size: 2, from: jst('05:00', day).toISOString(), until: jst('07:00', day).toISOString() },
      user(1),
      client,
      now,
    );
    // A change the index did not hear (as while the LISTEN connection was down): the next build finds it.
    await db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, b.booking.id));
    now = jst('05:10', day);
    await availabilityIndex(db).build(now);
    await watchMatcher(db).matcher.idle();
    // The earliest freed start is held for the watcher.
    const rows = await db.select().from(watchHolds).where(eq(watchHolds.watchId, w.watch.id));
    expect(rows.map((r) => r.startsAt.getTime())).toEqual([jst('05:15', day).getTime()]);
    const [mail] = (await mails(fx.users[1]!.email)).filter((m) => m.subject.includes('極小バー'));
    expect(mail!.subject).toBe('【すぐ予約】極小バー 5:15の席をあなたのために確保しました');
    // Building the same day again finds nothing new.
    await availabilityIndex(db).build(new Date(now.getTime() + 60_000));
    await watchMatcher(db).matcher.idle();
    expect(await db.select().from(watchHolds).where(eq(watchHolds.watchId, w.watch.id))).toHaveLength(rows.length);
  });

  it('refuses bad input with a 4xx naming the field', async () => {
    const field = async (input: Record<string, unknown>) => {
      try {
        await createWatch(db, t, validate(t, watchSchema, input), user(1), client, now);
      } catch (e) {
        const err = e as { status: number; options?: { fields?: Record<string, string> } };
        return [err.status, Object.keys(err.options?.fields ?? {})[0]];
      }
      return [201];
    };
    expect(await field({ store_id: fx.storeId, party_size: 2, until: jst('20:00').toISOString() })).toEqual([400, 'until']);
    expect(await field({ store_id: fx.storeId, party_size: 2, from: jst('19:00').toISOString() })).toEqual([400, 'from']);
    expect(await field({ store_id: fx.storeId, party_size: 2, until: jst('12:00', '2026-12-10').toISOString() })).toEqual([400, 'until']);
    expect(await field({ store_id: 99_999_999, party_size: 2 })).toEqual([400, 'store_id']);
    expect(await field({ area_id: 99_999_999, party_size: 2 })).toEqual([400, 'area_id']);
    expect(await field({ store_id: fx.storeId, party_size: 0 })).toEqual([400, 'party_size']);
    expect(await field({ store_id: fx.storeId, party_size: 21 })).toEqual([400, 'party_size']);
    expect(await field({ party_size: 2 })).toEqual([400, 'store_id']);
    // At most WATCHES_ACTIVE_MAX active watches per diner.
    const active = (await listWatches(db, user(1), now)).length;
    for (let i = active; i < WATCHES_ACTIVE_MAX; i++) expect(await field({ store_id: fx.storeId, party_size: 2 })).toEqual([201]);
    expect(await field({ store_id: fx.storeId, party_size: 2 })).toEqual([409, undefined]);
  });

  it('holds a guest address to 10 active watches and 10 a hour, and a client address to 30 a hour (429)', async () => {
    const status = (p: Promise<unknown>) =>
      p.then(
        () => 201,
        (e: { status: number }) => e.status,
      );
    const guestIp = { ...client, ip: '198.51.100.20' };
    const make = (token?: string) =>
      createWatch(db, t, { store_id: fx.storeId, party_size: 2, email: 'Many@Example.jp' }, { kind: 'guest', deviceToken: token }, guestIp, now);
    const first = await make();
    const device = { kind: 'device', token: first.deviceToken! } as const;
    for (let i = 1; i < WATCHES_ACTIVE_MAX; i++) await make(first.deviceToken);
    // The address (in any case) has its 10 active watches: the next is refused, whatever the device.
    await expect(createWatch(db, t, { store_id: fx.storeId, party_size: 2, email: 'many@example.jp' }, { kind: 'guest' }, guestIp, now)).rejects.toMatchObject({
      status: 409,
    });
    // One cancelled leaves room, but the address was asked for 10 times this hour.
    await cancelWatch(db, first.watch.id, device, now);
    expect(await status(make(first.deviceToken))).toBe(429);

    const userIp = { ...client, ip: '198.51.100.21' };
    for (let i = 0; i < 30; i++) {
      const made = await createWatch(db, t, { store_id: fx.storeId, party_size: 2 }, user(0), userIp, now);
      await cancelWatch(db, made.watch.id, user(0), now);
    }
    expect(await status(createWatch(db, t, { store_id: fx.storeId, party_size: 2 }, user(0), userIp, now))).toBe(429);
    expect(await status(createWatch(db, t, { store_id: fx.storeId, party_size: 2 }, user(0), { ...userIp, ip: '198.51.100.22' }, now))).toBe(201);
  });

  it('a released block and longer hours fire the watches whose starts they free', async () => {
    const day = '2026-11-21';
    const scope = { userId: fx.users[0]!.id, email: fx.users[0]!.email, tenant: 'test', storeIds: [fx.tinyStoreId, fx.storeId] };
    const freedFor = async (watchId: number) => (await db.select().from(watchHolds).where(eq(watchHolds.watchId, watchId))).map((r) => r.startsAt.getTime());
    const mailsAbout = async (to: string, store: string) => (await mails(to)).filter((m) => m.subject.includes(store)).map((m) => m.subject);

    // The tiny store's one table held 08:00–10:00: no start for a stay from 06:15 to 09:45.
    const [table] = await db.select({ id: storeTables.id }).from(storeTables).where(eq(storeTables.storeId, fx.tinyStoreId));
    const block = await createBlock(
      db,
      translate(t),
      scope,
      { store_id: fx.tinyStoreId, table_id: table!.id, start: jst('08:00', day).toISOString(), end: jst('10:00', day).toISOString() },
      now,
    );
    const blocked = await createWatch(
      db,
      t,
      { store_id: fx.tinyStoreId, party_size: 2, from: jst('08:00', day).toISOString(), until: jst('09:00', day).toISOString() },
      user(0),
      client,
      now,
    );
    await watchMatcher(db).matcher.idle();
    expect(await freedFor(blocked.watch.id)).toEqual([]);
    await releaseBlock(db, scope, block.id, now);
    await watchMatcher(db).matcher.idle();
    expect(await freedFor(blocked.watch.id)).toEqual([jst('08:00', day).getTime()]);
    expect(await mailsAbout(fx.users[0]!.email, '極小バー 8:00')).toEqual(['【すぐ予約】極小バー 8:00の席をあなたのために確保しました']);
    // That hold runs out unclaimed: one diner holds one offer at a time, so the next may be theirs.
    now = new Date(now.getTime() + (WATCH_HOLD_MINUTES + 1) * MINUTE_MS);

    // The other store closing at 15:00 (a two-hour stay's last start 13:00), then open around the
    // clock again: the later starts of a watch from 13:00 are free again. (A window without any
    // start is refused: tests/api/watch-refusals.test.ts.)
    const week = (closes: string) => ({ store_id: fx.storeId, hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens: '00:00', closes })) });
    await setHours(db, scope, week('15:00'), now);
    const closed = await createWatch(
      db,
      t,
      { store_id: fx.storeId, party_size: 3, from: jst('13:00', day).toISOString(), until: jst('13:30', day).toISOString() },
      user(0),
      client,
      now,
    );
    await setHours(db, scope, week('24:00'), now);
    await watchMatcher(db).matcher.idle();
    expect(await freedFor(closed.watch.id)).toEqual([jst('13:15', day).getTime()]);
    expect(await mailsAbout(fx.users[0]!.email, 'テスト酒場 渋谷 13:15')).toEqual(['【すぐ予約】テスト酒場 渋谷 13:15の席をあなたのために確保しました']);
  });
});

async function listAreaOf(db: Db, storeId: number): Promise<number | undefined> {
  const { stores } = await import('../../src/server/db/schema');
  const [row] = await db.select({ areaId: stores.areaId }).from(stores).where(eq(stores.id, storeId));
  return row?.areaId;
}
