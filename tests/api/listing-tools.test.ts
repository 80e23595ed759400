/**
 * The listing's sorts, filters and arrival-aware starts on both engines, at a fixed "now" (Friday
 * 20:07 JST, the seed's bookings made relative to it): each answer is checked against the rules
 * applied store by store to what the database holds, from the index and from the bookings alike.
 */
import { expect, it } from 'vitest';
import { stores } from '../../src/server/db/schema';
import { availabilityIndex, bookableNow, loadStoreStates, ofKind } from '../../src/server/availability';
import { listQuerySchema } from '../../src/server/stores/query';
import { searchStores } from '../../src/server/stores/search';
import { FILTER_TAGS, type TableKind } from '../../src/lib/contract/enums';
import { arrivalMs } from '../../src/lib/distance';
import { forEachEngine } from '../helpers/db';

const NOW = new Date('2026-11-20T20:07:00+09:00');
const q = (input: Record<string, unknown> = {}) => listQuerySchema.parse(input);
type Db = Parameters<typeof searchStores>[0];

async function all(db: Db, input: Record<string, unknown>) {
  const first = await searchStores(db, q({ ...input, per_page: 50 }), NOW);
  const items = [...first.items];
  for (let page = 2; items.length < first.total; page++) items.push(...(await searchStores(db, q({ ...input, per_page: 50, page }), NOW)).items);
  return { total: first.total, items };
}

/** Every store with what the filters read, and its state for the rules. */
async function everything(db: Db) {
  const rows = await db
    .select({ id: stores.id, tags: stores.tags, budgetMin: stores.budgetMin, budgetMax: stores.budgetMax, walkMinutes: stores.walkMinutes })
    .from(stores);
  const states = await loadStoreStates(
    db,
    rows.map((r) => r.id),
    new Date(NOW.getTime() - 86400_000),
    new Date(NOW.getTime() + 86400_000),
  );
  return { rows, states };
}

forEachEngine(
  'listing sorts and filters',
  (get) => {
    it('filters by budget range, seat kind and tags exactly as the rules say, never to an empty answer', async () => {
      const { db } = get();
      const { rows, states } = await everything(db);
      const cases = [
        { budget_max: 3000 },
        { budget_min: 8000 },
        { budget_min: 3000, budget_max: 5000, party: 4 },
        { seat: 'private_room', party: 4 },
        { seat: 'counter', party: 1 },
        { seat: 'tatami' },
        { tag: ['non_smoking'] },
        { tag: ['private_room', 'near_station'] },
        { tag: ['all_you_can_drink'], budget_max: 5000, seat: 'table' },
      ] as const;
      for (const input of cases) {
        const c = input as { budget_min?: number; budget_max?: number; seat?: string; tag?: readonly (keyof typeof FILTER_TAGS)[]; party?: number };
        const expected = rows
          .filter(
            (r) =>
              (c.budget_min === undefined || r.budgetMax >= c.budget_min) &&
              (c.budget_max === undefined || r.budgetMin <= c.budget_max) &&
              (c.tag ?? []).every((k) => r.tags.includes(FILTER_TAGS[k])) &&
              bookableNow(ofKind(states.get(r.id)!, c.seat as TableKind | undefined), c.party ?? 2, NOW).nextSlots.length > 0,
          )
          .map((r) => r.id)
          .sort((a, b) => a - b);
        const { items, total } = await all(db, { ...input, tag: c.tag ? [...c.tag] : undefined });
        expect(total, JSON.stringify(input)).toBeGreaterThan(0);
        expect(
          items.map((x) => x.id).sort((a, b) => a - b),
          JSON.stringify(input),
        ).toEqual(expected);
        // The starts shown are those with a free table of the kind asked for.
        for (const card of items) {
          const want = bookableNow(ofKind(states.get(card.id)!, c.seat as TableKind | undefined), c.party ?? 2, NOW);
          expect(card.nextSlots.map((s) => s.start.getTime())).toEqual(want.nextSlots.map((s) => s.start.getTime()));
        }
      }
    });

    it('sorts by budget, by walk from the station, by distance and by soonest start', async () => {
      const { db } = get();
      const total = (await searchStores(db, q(), NOW)).total;
      const byBudget = await all(db, { sort: 'budget' });
      expect(byBudget.total).toBe(total);
      const budgets = byBudget.items.map((c) => [c.budgetMin, c.budgetMax] as const);
      for (let i = 1; i < budgets.length; i++)
        expect(budgets[i - 1]![0] < budgets[i]![0] || (budgets[i - 1]![0] === budgets[i]![0] && budgets[i - 1]![1] <= budgets[i]![1])).toBe(true);
      expect(budgets[0]![0]).toBeLessThan(budgets.at(-1)![0]);

      const walks = (await all(db, { sort: 'nearest' })).items.map((c) => c.walkMinutes);
      expect([...walks].sort((a, b) => a - b)).toEqual(walks);
      expect(walks[0]).toBeLessThan(walks.at(-1)!);

      const here = { lat: 35.658, lng: 139.7016 };
      const near = (await all(db, { ...here, sort: 'nearest' })).items.map((c) => c.distanceM!);
      expect([...near].sort((a, b) => a - b)).toEqual(near);

      const soonest = (await all(db, { sort: 'soonest' })).items.map((c) => c.nextSlots[0]!.start.getTime());
      expect([...soonest].sort((a, b) => a - b)).toEqual(soonest);
      expect(soonest[0]).toBeLessThan(soonest.at(-1)!);
    });

    it('offers first the start a diner can walk to in time, from the index and from the bookings alike', async () => {
      const { db } = get();
      // Shinjuku station: Shibuya's stores are some 3 km away, 40-odd minutes on foot.
      const shinjuku = { lat: 35.6896, lng: 139.7006 };
      const answer = async () => (await all(db, { ...shinjuku, sort: 'soonest' })).items;
      const fromIndex = await answer();
      const far = fromIndex.filter((c) => c.distanceM! > 2500);
      expect(far.length).toBeGreaterThan(0);
      let movedLater = 0;
      for (const card of fromIndex) {
        const arrival = arrivalMs(NOW, card.distanceM!);
        expect(card.arrival!.getTime(), card.name).toBeGreaterThanOrEqual(arrival - 1000 * 60);
        for (const s of card.nextSlots) expect(s.start.getTime(), card.name).toBeGreaterThanOrEqual(card.arrival!.getTime());
        if (card.nextSlots[0] && card.nextSlots[0].start.getTime() > NOW.getTime() + 60 * 60_000) movedLater++;
      }
      // Far stores show a start after the hour that the diner can make.
      expect(movedLater).toBeGreaterThan(0);
      // Stores with a start within the hour the diner can make come first, soonest first.
      const firstStarts = fromIndex.map((c) => c.nextSlots[0]?.start.getTime() ?? Infinity);
      const reachableNow = firstStarts.filter((t) => t <= NOW.getTime() + 60 * 60_000);
      expect(firstStarts.slice(0, reachableNow.length)).toEqual([...reachableNow].sort((a, b) => a - b));

      const index = availabilityIndex(db);
      index.suspend('test: the database answers');
      try {
        const fromDb = await answer();
        const shape = (cs: typeof fromIndex) => cs.map((c) => ({ id: c.id, next: c.nextSlots.map((s) => s.start.getTime()), free: c.freeTables }));
        expect(shape(fromDb)).toEqual(shape(fromIndex));
      } finally {
        await index.resync('test');
      }
    });

    it('answers filters and sorts the same from the bookings as from the index', async () => {
      const { db } = get();
      const queries = [
        { sort: 'budget', budget_max: 4000 },
        { sort: 'soonest', seat: 'table', party: 3 },
        { sort: 'nearest', tag: ['non_smoking'] },
        { sort: 'nearest', lat: 35.6717, lng: 139.765, per_page: 10, page: 2 },
        { sort: 'budget', lat: 35.658, lng: 139.7016, seat: 'counter', party: 1 },
      ];
      const shape = (p: Awaited<ReturnType<typeof searchStores>>) => ({
        total: p.total,
        items: p.items.map((c) => ({ id: c.id, free: c.freeTables, next: c.nextSlots.map((x) => x.start.getTime()) })),
      });
      const fromIndex = [];
      for (const input of queries) fromIndex.push(shape(await searchStores(db, q(input), NOW)));
      const index = availabilityIndex(db);
      index.suspend('test: the database answers');
      try {
        for (const [i, input] of queries.entries()) {
          const fromDb = shape(await searchStores(db, q(input), NOW));
          expect(fromDb.total, JSON.stringify(input)).toBeGreaterThan(0);
          expect(fromIndex[i], JSON.stringify(input)).toEqual(fromDb);
        }
      } finally {
        await index.resync('test');
      }
    });
  },
  { seed: true, now: NOW },
);
