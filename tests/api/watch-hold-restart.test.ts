/**
 * A hold whose deadline passed while no instance was running still rolls on: the instance that
 * starts again reads its availability after the deadline, so its index already counts the held
 * table free, and the expiry job's change frees nothing it can see; the start must be offered to
 * the next watcher all the same. On both engines, through the real services, the availability
 * index and the watch matcher, at an hour the test chooses (tomorrow evening).
 */
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { until } from '../helpers/app';
import { prepare, type Fixture } from './booking-fixtures';
import { book, cancel, type BookingContext } from '../../src/server/bookings/http';
import { availabilityIndex, availabilityView } from '../../src/server/availability';
import { watchHolds } from '../../src/server/db/schema';
import { translatorFor } from '../../src/i18n';
import { translate } from '../../src/server/http/api';
import { createWatch } from '../../src/server/watches/service';
import { watchMatcher } from '../../src/server/watches/matcher';
import { expireHolds, offerFreed } from '../../src/server/watches/holds';
import { tokyoInstant } from '../../src/lib/datetime';
import { watchDay } from './watch-fixtures';
import type { Db } from '../../src/server/db/types';

const t = translatorFor('ja');
const at = (hh: number, mm = 0) => tokyoInstant(watchDay, hh * 60 + mm);
const client = { ip: '203.0.113.9', origin: 'https://sugu.test', locale: 'ja' };

forEachEngine('a hold expired across a restart', (get) => {
  let db: Db;
  let fx: Fixture;
  let now = at(20, 7);
  const ctx = (): BookingContext => ({ t: translate(t), locale: 'ja', origin: client.origin, now });
  const user = (n: 0 | 1) => ({ kind: 'user', userId: fx.users[n]!.id, email: fx.users[n]!.email }) as const;
  const holdsOf = (watchId: number) => db.select().from(watchHolds).where(eq(watchHolds.watchId, watchId));

  beforeAll(async () => {
    db = get().db;
    fx = await prepare(db);
  });

  it('the instance started again past the deadline offers the start to the next watcher', async () => {
    const start = at(20, 30);
    // Before any index or matcher exists in this process: the instance that is about to stop.
    const taken = await book(db, { store_id: fx.tinyStoreId, start: start.toISOString(), party_size: 2, name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'taken@example.jp' }, { kind: 'guest', token: '' }, ctx());
    const window = { store_id: fx.tinyStoreId, party_size: 2, from: start.toISOString(), until: at(20, 31).toISOString() };
    const w0 = await createWatch(db, t, window, user(0), client, now);
    const w1 = await createWatch(db, t, window, user(1), client, now);
    now = at(20, 10);
    await cancel(db, taken.booking.id, { kind: 'guest', token: taken.editToken! }, ctx());
    // What that instance's matcher does with the freed start: held for the first watcher only.
    const found = [w0, w1].map((w) => ({ watch: { id: w.watch.id }, starts: [start.getTime()] }));
    expect((await offerFreed(db, fx.tinyStoreId, found, now)).map((o) => o.alert.watch_id)).toEqual([w0.watch.id]);
    const [h0] = await holdsOf(w0.watch.id);
    expect(h0!.state).toBe('offered');
    expect(await holdsOf(w1.watch.id)).toEqual([]);

    // The instance is gone past the deadline. The index of the one that starts reads the holds by the
    // process's clock (the real one, hours before this test's): the deadline set just behind it is
    // one that has passed when the index is first read.
    now = new Date(h0!.expiresAt.getTime() + 60_000);
    await db.update(watchHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(watchHolds.id, h0!.id));
    const { matcher, loaded } = watchMatcher(db);
    await loaded;
    matcher.clock = () => now;
    await availabilityIndex(db).view(now);
    const freeAt = async () => (await availabilityView(db, now, [fx.tinyStoreId]))!.daySlots(fx.tinyStoreId, watchDay, 2)?.find((s) => s.start.getTime() === start.getTime())?.freeTables;
    expect(await freeAt()).toBe(1);

    // The expiry job marks it, and the start goes to the second watcher.
    expect(await expireHolds(db, now)).toBe(1);
    const h1 = await until(async () => {
      await matcher.idle();
      return (await holdsOf(w1.watch.id)).find((h) => h.state === 'offered');
    }, 'a hold for the second watcher');
    expect(h1).toMatchObject({ storeId: fx.tinyStoreId, startsAt: start, tableId: h0!.tableId });
    expect((await holdsOf(w0.watch.id)).map((h) => h.state)).toEqual(['expired']);
    // Held again: out of the listing.
    await until(async () => (await freeAt()) === 0, 'the new hold in the listing');
  });
});
