/**
 * Claimable 空席通知 on both engines, at an hour the test chooses (tomorrow evening, ahead of the
 * real clock, so the index's own reading of the clock agrees that a hold is still open): a freed
 * start is held for the first watcher only, in the order they asked; the hold keeps its table out
 * of the listing and refuses another diner's booking; past its deadline the expiry job frees it and
 * the next watcher is offered it; of two claims at once exactly one books; one diner holds one offer
 * at a time; another diner's hold is not found. Through the real services and database.
 */
import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { until } from '../helpers/app';
import { prepare, type Fixture } from './booking-fixtures';
import { book, cancel, type BookingContext } from '../../src/server/bookings/http';
import { createBooking } from '../../src/server/bookings/create';
import { availabilityIndex, availabilityView } from '../../src/server/availability';
import { openDb } from '../../src/server/db/client';
import { bookings, mailOutbox, storeTables, watchHolds } from '../../src/server/db/schema';
import { translatorFor } from '../../src/i18n';
import { translate } from '../../src/server/http/api';
import { createWatch } from '../../src/server/watches/service';
import { watchMatcher } from '../../src/server/watches/matcher';
import { claimHold, expireHolds, getHold, offerFreed } from '../../src/server/watches/holds';
import { WATCH_HOLD_MINUTES } from '../../src/lib/contract/watches';
import { MINUTE_MS, tokyoInstant } from '../../src/lib/datetime';
import { watchDay } from './watch-fixtures';
import type { Db } from '../../src/server/db/types';

const t = translatorFor('ja');
const at = (hh: number, mm = 0) => tokyoInstant(watchDay, hh * 60 + mm);
const client = { ip: '203.0.113.9', origin: 'https://sugu.test', locale: 'ja' };
/** The claimer's address and browser, as the booking limits count them. */
const claimer = { address: '203.0.113.9', device: 'holdsTestDevice0000000' };
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'holder@example.jp' };

forEachEngine('watch holds', (get, engine) => {
  let db: Db;
  let fx: Fixture;
  let now = at(20, 7);
  const ctx = (): BookingContext => ({ t: translate(t), locale: 'ja', origin: client.origin, now });
  const user = (n: 0 | 1) => ({ kind: 'user', userId: fx.users[n]!.id, email: fx.users[n]!.email }) as const;
  const asUser = (n: 0 | 1) => ({ owner: user(n), token: null });
  const holdsOf = (watchId: number) => db.select().from(watchHolds).where(eq(watchHolds.watchId, watchId));
  /**
   * The watch's holds once it has one: on PostgreSQL the change reaches the index (and so the
   * offer) through its LISTEN connection, after the call that made it has returned.
   */
  const offered = async (watchId: number) => {
    await watchMatcher(db).matcher.idle();
    return until(async () => {
      await watchMatcher(db).matcher.idle();
      const rows = await holdsOf(watchId);
      return rows.some((h) => h.state === 'offered') && rows;
    }, `a hold for watch ${watchId}`);
  };
  const freeAt = async (storeId: number, start: Date, party: number) => {
    // The listing's own source: the availability index, as the server's pages read it.
    const view = await availabilityView(db, now, [storeId]);
    return view!.daySlots(storeId, watchDay, party)?.find((s) => s.start.getTime() === start.getTime())?.freeTables;
  };

  beforeAll(async () => {
    db = get().db;
    fx = await prepare(db);
    await availabilityIndex(db).view(now);
    const { matcher, loaded } = watchMatcher(db);
    await loaded;
    matcher.clock = () => now;
  });

  it('a freed start is held for the first watcher only: out of the listing, refused to another diner; expired, it goes to the next; of two claims one books', async () => {
    now = at(20, 7);
    // The tiny store's one table, taken at 20:30: nothing free for two around then.
    const first = await book(db, { store_id: fx.tinyStoreId, start: at(20, 30).toISOString(), party_size: 2, ...guest }, { kind: 'guest', token: '' }, ctx());
    const window = { store_id: fx.tinyStoreId, party_size: 2, from: at(20, 30).toISOString(), until: at(20, 30).toISOString() };
    // Asked in this order: user 0, then user 1 (a window of the one start).
    const w0 = await createWatch(db, t, { ...window, until: at(20, 31).toISOString() }, user(0), client, now);
    const w1 = await createWatch(db, t, { ...window, until: at(20, 31).toISOString() }, user(1), client, now);

    now = at(20, 10);
    await cancel(db, first.booking.id, { kind: 'guest', token: first.editToken! }, ctx());
    const [h0, ...more] = await offered(w0.watch.id);
    expect(more).toEqual([]);
    expect(h0).toMatchObject({
      storeId: fx.tinyStoreId,
      startsAt: at(20, 30),
      state: 'offered',
      expiresAt: new Date(now.getTime() + WATCH_HOLD_MINUTES * MINUTE_MS),
    });
    expect(await holdsOf(w1.watch.id)).toEqual([]);
    // The mail: the watcher's language, the start, the deadline and a link of its own (its token kept hashed).
    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, fx.users[0]!.email), eq(mailOutbox.kind, 'watch_hold')));
    expect(mail!.subject).toBe('【すぐ予約】極小バー 20:30の席をあなたのために確保しました');
    expect(mail!.bodyText).toContain('20:15までに');
    const token = mail!.bodyText.match(new RegExp(`/watches/hold/${h0!.id}\\?token=([\\w-]+)`))![1]!;
    expect(h0!.tokenHash).not.toContain(token);
    expect(await getHold(db, h0!.id, { owner: null, token }, now)).toMatchObject({ id: h0!.id, state: 'offered', store_name: '極小バー' });

    // Held: out of the listing, and another diner's booking of it is refused.
    expect(await freeAt(fx.tinyStoreId, at(20, 30), 2)).toBe(0);
    const other = await createBooking(
      db,
      { store_id: fx.tinyStoreId, start: at(20, 30).toISOString(), party_size: 2 },
      { kind: 'user', userId: fx.users[1]!.id, email: fx.users[1]!.email, name: '予約 太郎2' },
      now,
    );
    expect(other.kind).toBe('slot_taken');
    // Another diner's hold is not theirs to see or claim.
    await expect(getHold(db, h0!.id, asUser(1), now)).rejects.toMatchObject({ status: 404 });
    await expect(claimHold(db, h0!.id, asUser(1), {}, ctx(), claimer)).rejects.toMatchObject({ status: 404 });
    await expect(getHold(db, h0!.id, { owner: null, token: 'guessed' }, now)).rejects.toMatchObject({ status: 404 });

    // Past the deadline: free again by itself for the booking service, then marked by the job and offered to the next watcher.
    now = new Date(h0!.expiresAt.getTime() + 1000);
    expect(await expireHolds(db, now)).toBe(1);
    expect(await expireHolds(db, now)).toBe(0);
    const [h1] = await offered(w1.watch.id);
    expect(h1).toMatchObject({ startsAt: at(20, 30), state: 'offered' });
    expect((await holdsOf(w0.watch.id)).map((h) => h.state)).toEqual(['expired']);
    await expect(claimHold(db, h0!.id, asUser(0), {}, ctx(), claimer)).rejects.toMatchObject({ status: 409 });

    // Two claims at once (two connections on PostgreSQL): exactly one books.
    const other2 = engine === 'postgres' ? await openDb({ databaseUrl: get().location, max: 3 }) : undefined;
    try {
      const results = await Promise.allSettled([
        claimHold(db, h1!.id, asUser(1), {}, ctx(), claimer),
        claimHold(other2?.db ?? db, h1!.id, asUser(1), {}, ctx(), claimer),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toMatchObject([
        { status: 409, code: 'hold_state' },
      ]);
    } finally {
      await other2?.close();
    }
    const [claimed] = await holdsOf(w1.watch.id);
    expect(claimed!.state).toBe('claimed');
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, claimed!.bookingId!));
    expect(booking).toMatchObject({ userId: fx.users[1]!.id, tableId: h1!.tableId, startsAt: at(20, 30), status: 'confirmed' });
  });

  it('one diner holds one offer at a time; the next start goes to the next watcher', async () => {
    now = at(22, 7);
    // Every table of the main store taken at 22:30.
    const tables = await db.select().from(storeTables).where(eq(storeTables.storeId, fx.storeId));
    const made: Awaited<ReturnType<typeof book>>[] = [];
    for (let i = 0; i < tables.length; i++) {
      made.push(
        await book(
          db,
          { store_id: fx.storeId, start: at(22, 30).toISOString(), party_size: 2, ...guest, phone: `090-0000-000${i}`, email: `full${i}@example.jp` },
          { kind: 'guest', token: '' },
          ctx(),
        ),
      );
    }
    expect(await freeAt(fx.storeId, at(22, 30), 2)).toBe(0);
    const window = { store_id: fx.storeId, party_size: 2, from: at(22, 30).toISOString(), until: at(22, 31).toISOString() };
    const a = await createWatch(db, t, window, user(0), client, now);
    const b = await createWatch(db, t, window, user(1), client, now);
    // user 0 watches twice (another party size): still one offer for them.
    const a2 = await createWatch(db, t, { ...window, party_size: 3 }, user(0), client, now);
    const open = async (id: number) => (await holdsOf(id)).filter((h) => h.state === 'offered');
    const freeAgain = (m: (typeof made)[number]) => cancel(db, m.booking.id, { kind: 'guest', token: m.editToken! }, ctx());
    // One table freed: held for user 0 (their first watch); the listing has none again once the index has the hold.
    await freeAgain(made[0]!);
    await until(async () => (await open(a.watch.id)).length + (await open(a2.watch.id)).length === 1, 'a hold for user 0');
    await until(async () => (await freeAt(fx.storeId, at(22, 30), 2)) === 0, 'the hold in the listing');
    // Another table freed: user 0 holds an offer already, so it is user 1's.
    await freeAgain(made[1]!);
    await offered(b.watch.id);
    expect((await open(a.watch.id)).length + (await open(a2.watch.id)).length).toBe(1);
    expect(await open(b.watch.id)).toHaveLength(1);
    // Offering again (another instance hearing the same change) gives nobody a second hold.
    await offerFreed(
      db,
      fx.storeId,
      [a, a2, b].map((w) => ({ watch: { id: w.watch.id }, starts: [at(22, 30).getTime()] })),
      now,
    );
    expect((await open(a.watch.id)).length + (await open(a2.watch.id)).length).toBe(1);
    expect(await open(b.watch.id)).toHaveLength(1);
  });
});
