/**
 * Two tables freed at one store by one change (one availability refresh), or by two changes at
 * once, are two offers: each freed table goes to its own first watcher, in the order they asked,
 * and a diner still holds at most one offer at a time. On both engines, through the real services, the availability index and
 * the watch matcher, at an hour the test chooses (tomorrow evening).
 */
import { beforeAll, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { until } from '../helpers/app';
import { prepare, type Fixture } from './booking-fixtures';
import { book, cancel, type BookingContext } from '../../src/server/bookings/http';
import { availabilityIndex, availabilityView } from '../../src/server/availability';
import { bookings, storeTables, users, watchHolds } from '../../src/server/db/schema';
import { publishAvailabilityChange } from '../../src/server/events';
import { translatorFor } from '../../src/i18n';
import { translate } from '../../src/server/http/api';
import { createWatch } from '../../src/server/watches/service';
import { watchMatcher } from '../../src/server/watches/matcher';
import { expireHolds } from '../../src/server/watches/holds';
import { tokyoInstant } from '../../src/lib/datetime';
import { watchDay } from './watch-fixtures';
import type { Db } from '../../src/server/db/types';

const t = translatorFor('ja');
const at = (hh: number, mm = 0) => tokyoInstant(watchDay, hh * 60 + mm);
const client = { ip: '203.0.113.9', origin: 'https://sugu.test', locale: 'ja' };

forEachEngine('freed tables offered to their own watchers', (get) => {
  let db: Db;
  let fx: Fixture;
  let third: { id: number; email: string };
  let now = at(20, 7);
  const ctx = (): BookingContext => ({ t: translate(t), locale: 'ja', origin: client.origin, now });
  const asUser = (u: { id: number; email: string }) => ({ kind: 'user', userId: u.id, email: u.email }) as const;
  const openHolds = (watchIds: number[]) =>
    db
      .select()
      .from(watchHolds)
      .where(and(inArray(watchHolds.watchId, watchIds), eq(watchHolds.state, 'offered')));
  const freeAt = async (start: Date) => {
    const view = await availabilityView(db, now, [fx.storeId]);
    return view!.daySlots(fx.storeId, watchDay, 2)?.find((s) => s.start.getTime() === start.getTime())?.freeTables;
  };

  beforeAll(async () => {
    db = get().db;
    fx = await prepare(db);
    [third] = await db
      .insert(users)
      .values({ email: `booker3-${process.pid}@example.jp`, passwordHash: 'x', name: '予約 太郎3', emailVerifiedAt: new Date() })
      .returning({ id: users.id, email: users.email });
    await availabilityIndex(db).view(now);
    const { matcher, loaded } = watchMatcher(db);
    await loaded;
    matcher.clock = () => now;
  });

  it('two tables freed in one refresh go to the first two watchers, one each; the third waits; a diner with two watches gets one', async () => {
    const start = at(20, 30);
    // Every table of the store taken at 20:30.
    const tables = await db.select().from(storeTables).where(eq(storeTables.storeId, fx.storeId));
    const made: number[] = [];
    for (let i = 0; i < tables.length; i++) {
      const { booking } = await book(
        db,
        {
          store_id: fx.storeId,
          start: start.toISOString(),
          party_size: 2,
          name: '山田 花子',
          name_kana: 'ヤマダ ハナコ',
          phone: `090-0000-100${i}`,
          email: `full${i}@example.jp`,
        },
        { kind: 'guest', token: '' },
        ctx(),
      );
      made.push(booking.id);
    }
    await until(async () => (await freeAt(start)) === 0 && true, 'the store full at 20:30');

    // Asked in this order: user 0 (twice: another party size too), user 1, user 2.
    const window = { store_id: fx.storeId, party_size: 2, from: start.toISOString(), until: at(20, 31).toISOString() };
    const w0 = await createWatch(db, t, window, asUser(fx.users[0]!), client, now);
    const w0b = await createWatch(db, t, { ...window, party_size: 3 }, asUser(fx.users[0]!), client, now);
    const w1 = await createWatch(db, t, window, asUser(fx.users[1]!), client, now);
    const w2 = await createWatch(db, t, window, asUser(third), client, now);
    const all = [w0, w0b, w1, w2].map((w) => w.watch.id);

    // Two bookings given back at once (as the overdue release gives back every late table in one
    // statement): one change, one refresh of the index.
    now = at(20, 10);
    await db
      .update(bookings)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(inArray(bookings.id, made.slice(0, 2)));
    await publishAvailabilityChange(db, [fx.storeId]);

    await until(async () => {
      await watchMatcher(db).matcher.idle();
      const rows = await openHolds(all);
      return rows.length >= 2;
    }, 'two holds');
    await watchMatcher(db).matcher.idle();
    const rows = await openHolds(all);
    expect(rows).toHaveLength(2);
    expect(rows.every((h) => h.startsAt.getTime() === start.getTime())).toBe(true);
    // One for user 0 (by one of their watches), one for user 1; each its own table; user 2 waits.
    const owners = rows.map((h) => (h.watchId === w0.watch.id || h.watchId === w0b.watch.id ? 'user0' : h.watchId === w1.watch.id ? 'user1' : 'user2')).sort();
    expect(owners).toEqual(['user0', 'user1']);
    expect(new Set(rows.map((h) => h.tableId)).size).toBe(2);
    expect(made.length).toBe(tables.length);
    // Both held tables are out of the listing.
    await until(async () => (await freeAt(start)) === 0 && true, 'the holds in the listing');
  });

  it('two bookings cancelled at the same moment: each table goes to its own watcher, whichever change the index hears first', async () => {
    // The first test's offers are past their deadline by now, their tables free again.
    now = at(21, 7);
    await expireHolds(db, now);
    const start = at(21, 30);
    const tables = await db.select().from(storeTables).where(eq(storeTables.storeId, fx.storeId));
    const made: Awaited<ReturnType<typeof book>>[] = [];
    // The tables the first test gave back, taken at 21:30 (the other two are still taken until 22:30).
    while ((await freeAt(start)) !== 0) {
      made.push(
        await book(
          db,
          {
            store_id: fx.storeId,
            start: start.toISOString(),
            party_size: 2,
            name: '山田 花子',
            name_kana: 'ヤマダ ハナコ',
            phone: `090-0000-200${made.length}`,
            email: `late${made.length}@example.jp`,
          },
          { kind: 'guest', token: '' },
          ctx(),
        ),
      );
      expect(made.length).toBeLessThanOrEqual(tables.length);
    }
    expect(made).toHaveLength(2);
    const window = { store_id: fx.storeId, party_size: 2, from: start.toISOString(), until: at(21, 31).toISOString() };
    const w0 = await createWatch(db, t, window, asUser(fx.users[0]!), client, now);
    const w1 = await createWatch(db, t, window, asUser(fx.users[1]!), client, now);
    const w2 = await createWatch(db, t, window, asUser(third), client, now);
    const all = [w0, w1, w2].map((w) => w.watch.id);

    now = at(21, 10);
    await Promise.all(made.map((m) => cancel(db, m.booking.id, { kind: 'guest', token: m.editToken! }, ctx())));
    await until(async () => {
      await watchMatcher(db).matcher.idle();
      return (await openHolds(all)).length >= 2;
    }, 'two holds');
    await watchMatcher(db).matcher.idle();
    const rows = await openHolds(all);
    expect(rows.map((h) => h.watchId).sort((a, b) => a - b)).toEqual([w0.watch.id, w1.watch.id]);
    expect(rows.every((h) => h.startsAt.getTime() === start.getTime())).toBe(true);
    expect(new Set(rows.map((h) => h.tableId)).size).toBe(2);
  });
});
