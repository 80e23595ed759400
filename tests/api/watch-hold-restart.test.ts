/**
 * A hold whose deadline passed while no instance was running still rolls on: the instance that
 * starts again reads its availability after the deadline, so its index already counts the held
 * table free, and the expiry job's change frees nothing it can see; the start must be offered to
 * the next watcher all the same. On both engines, through the real services, the availability
 * index and the watch matcher, at an hour the test chooses (tomorrow evening). The expiry job marks
 * a hold once, on one instance: an area watch (matched on the store's area and name) must be offered
 * the start even when that instance's index has no answer at that moment.
 */
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { until } from '../helpers/app';
import { prepare, type Fixture } from './booking-fixtures';
import { book, cancel, type BookingContext } from '../../src/server/bookings/http';
import { availabilityIndex, availabilityView } from '../../src/server/availability';
import { stores, watchHolds } from '../../src/server/db/schema';
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
    const taken = await book(
      db,
      {
        store_id: fx.tinyStoreId,
        start: start.toISOString(),
        party_size: 2,
        name: '山田 花子',
        name_kana: 'ヤマダ ハナコ',
        phone: '090-1234-5678',
        email: 'taken@example.jp',
      },
      { kind: 'guest', token: '' },
      ctx(),
    );
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
    await db
      .update(watchHolds)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(watchHolds.id, h0!.id));
    const { matcher, loaded } = watchMatcher(db);
    await loaded;
    matcher.clock = () => now;
    await availabilityIndex(db).view(now);
    const freeAt = async () =>
      (await availabilityView(db, now, [fx.tinyStoreId]))!.daySlots(fx.tinyStoreId, watchDay, 2)?.find((s) => s.start.getTime() === start.getTime())
        ?.freeTables;
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

  it("an area watch is offered the expired hold's start while the index has no answer", async () => {
    // The first test's hold on the tiny store ends its life first, so that only this test's expires below.
    now = at(21, 0);
    await expireHolds(db, now);
    const start = at(21, 30);
    const taken = await book(
      db,
      {
        store_id: fx.tinyStoreId,
        start: start.toISOString(),
        party_size: 2,
        name: '山田 花子',
        name_kana: 'ヤマダ ハナコ',
        phone: '090-1234-5678',
        email: 'taken@example.jp',
      },
      { kind: 'guest', token: '' },
      ctx(),
    );
    const [store] = await db.select({ areaId: stores.areaId, name: stores.name }).from(stores).where(eq(stores.id, fx.tinyStoreId));
    // Watches of the store's area for its name, as the listing's empty search asks for them.
    const window = { area_id: store!.areaId, keyword: store!.name, party_size: 2, from: start.toISOString(), until: at(21, 31).toISOString() };
    const w0 = await createWatch(db, t, window, user(0), client, now);
    now = at(21, 2);
    await cancel(db, taken.booking.id, { kind: 'guest', token: taken.editToken! }, ctx());
    // This process's matcher hears the cancellation and holds the start for the watcher.
    const { matcher } = watchMatcher(db);
    const h0 = await until(async () => {
      await matcher.idle();
      return (await holdsOf(w0.watch.id)).find((h) => h.state === 'offered');
    }, "the first watcher's hold");
    expect(h0).toMatchObject({ storeId: fx.tinyStoreId, startsAt: start });

    // Past the deadline, on an instance whose index read the store after it (as the first test's
    // did): the table is free there already, so the expiry's change frees nothing the matcher can see.
    now = new Date(h0.expiresAt.getTime() + 60_000);
    await db
      .update(watchHolds)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(watchHolds.id, h0.id));
    const index = availabilityIndex(db);
    await index.refresh([fx.tinyStoreId]);
    await matcher.idle();
    const freeAt = async () =>
      (await availabilityView(db, now, [fx.tinyStoreId]))!.daySlots(fx.tinyStoreId, watchDay, 2)?.find((s) => s.start.getTime() === start.getTime())
        ?.freeTables;
    expect(await freeAt()).toBe(1);
    // A second diner watches the same (asking after the first), and as the expiry job runs, the
    // index cannot be trusted (its LISTEN connection lost, say).
    const w1 = await createWatch(db, t, window, user(1), client, now);
    expect(await holdsOf(w1.watch.id)).toEqual([]);
    index.suspend('test');
    try {
      expect(await availabilityView(db, now, [fx.tinyStoreId])).toBeNull();
      expect(await expireHolds(db, now)).toBe(1);
      const h1 = await until(async () => {
        await matcher.idle();
        return (await holdsOf(w1.watch.id)).find((h) => h.state === 'offered');
      }, 'a hold for the second watcher');
      expect(h1).toMatchObject({ storeId: fx.tinyStoreId, startsAt: start, tableId: h0.tableId });
      expect((await holdsOf(w0.watch.id)).map((h) => h.state)).toEqual(['expired']);
    } finally {
      await index.resync('test');
    }
  });
});
