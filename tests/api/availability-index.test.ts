/**
 * The availability index across instances, on both engines: a booking through one instance's API
 * is in that instance's listing and slots as soon as it is answered, and in every other
 * instance's once its stream has told of the change (the stream speaks only after the index has
 * applied it). The embedded database serves one process, so there the two are the same instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDb, startApp, type App } from '../helpers/app';
import { businessDate } from '../../src/server/availability/rules';
import { allDayStoreIds, allDayStoreIdsOfTemplate, SseStream, type Availability } from './live-sse';

let guests = 0;
/** Each booking another diner: one diner cannot hold two overlapping bookings at a store. */
const guest = () => {
  const n = ++guests;
  return { name: '試験 花子', name_kana: 'シケン ハナコ', phone: `090-2345-${6000 + n}`, email: `index-test-${n}@example.jp` };
};

interface Views {
  slot: { start: string; free_tables: number } | undefined;
  card: { id: number; free_tables: number; next_slots: { start: string; free_tables: number }[] } | undefined;
  /** The day's slot at the card's first start, whichever mark that is. */
  cardSlot: { start: string; free_tables: number } | undefined;
  slots: { start: string; free_tables: number }[];
}

/** What instance `app` shows for the store: the day's slot at `start`, and the store's card, nearest first from the store itself. */
async function views(app: App, storeId: number, start: string): Promise<Views> {
  const store = await (await app.fetch(`/api/stores/${storeId}`)).json();
  const day = await (await app.fetch(`/api/stores/${storeId}/availability?date=${businessDate(new Date(start))}&party=2`)).json();
  const list = await (await app.fetch(`/api/stores?party=2&lat=${store.lat}&lng=${store.lng}&per_page=5`)).json();
  const card = list.items.find((c: { id: number }) => c.id === storeId);
  return {
    slot: day.slots.find((s: { start: string }) => s.start === start),
    card,
    cardSlot: day.slots.find((s: { start: string }) => s.start === card?.next_slots[0]?.start),
    slots: day.slots,
  };
}

async function bookAndSee(booker: App, watcher: App, stores: number[]) {
  const stream = await SseStream.open(watcher, `/api/availability/stream?stores=${stores.join(',')}&party=2`);
  try {
    // A store with two tables free at its first start, so it stays bookable and both counts move by one.
    const target = [...(await stream.snapshot(stores)).values()].find((a: Availability) => a.free_tables >= 2);
    if (!target) throw new Error('no all-day store with two free tables now');
    const start = target.next_slots[0]!;
    const before = await views(watcher, target.store_id, start);
    expect(before.slot?.free_tables).toBe(target.free_tables);
    // A card offers the first start a diner standing at the store can still reach (five minutes'
    // margin, src/lib/distance): in the last minutes before a mark that is the next one, with its own count.
    // Either way the card and the day's slots agree on the count at the card's start.
    expect(before.card).toBeDefined();
    expect(before.cardSlot).toBeDefined();
    expect(before.card!.free_tables).toBe(before.cardSlot!.free_tables);

    const res = await booker.fetch('/api/guest-bookings', { method: 'POST', json: { store_id: target.store_id, start, party_size: 2, ...guest() } });
    expect(res.status, await res.clone().text()).toBe(201);
    // On the instance that took the booking, at once.
    const mine = await views(booker, target.store_id, start);
    expect(mine.slot?.free_tables).toBe(target.free_tables - 1);

    // Elsewhere, once the stream tells of this change (a later one than the snapshot's).
    const rev = (x: Availability) => x.rev ?? 0;
    const told = await stream.until(
      () => stream.availability().find((x) => x.store_id === target.store_id && rev(x) > rev(target)),
      `the change at store ${target.store_id}`,
    );
    const after = await views(watcher, target.store_id, start);
    expect(after.slot?.free_tables).toBe(target.free_tables - 1);
    // The first start may have moved on meanwhile (a 15-minute mark): the stream and the card then
    // count the next one, and each still agrees with the day's slots at the start it names.
    const toldSlot = after.slots.find((s) => s.start === told.next_slots[0]);
    expect(toldSlot).toBeDefined();
    expect(told.free_tables).toBe(toldSlot!.free_tables);
    expect(after.card).toBeDefined();
    expect(after.cardSlot).toBeDefined();
    expect(after.card!.free_tables).toBe(after.cardSlot!.free_tables);
  } finally {
    stream.close();
  }
}

describe('availability index on the embedded database (one instance)', () => {
  let app: App;
  let stores: number[];
  beforeAll(async () => {
    app = await startApp('pglite');
    stores = await allDayStoreIdsOfTemplate(10);
  });
  afterAll(() => app?.stop());

  it('a booking is in the listing, the slots and the stream of the instance that took it', () => bookAndSee(app, app, stores));
});

describe('availability index on PostgreSQL (two instances)', () => {
  let a: App;
  let b: App;
  let stores: number[];
  beforeAll(async () => {
    a = await startApp('postgres');
    b = await startApp('postgres', {}, { databaseUrl: a.databaseUrl });
    const h = await openAppDb(a);
    stores = await allDayStoreIds(h.db, 10);
    await h.close();
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('a booking through instance A is in instance B’s listing and slots once B’s stream tells of it', () => bookAndSee(a, b, stores));
  it('and the other way round', () => bookAndSee(b, a, stores));
});
