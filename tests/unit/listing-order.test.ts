/**
 * The listing's one pass (catalog.ts searchCatalog) filters and orders exactly as a plain
 * filter-then-sort over the same stores does: random stores, bookable-now marks, positions and
 * queries, every sort, budget range and tag set, any page.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCatalog,
  countBookable,
  firstMarkFrom,
  searchCatalog,
  surfaceMetres,
  tagBitsOf,
  tagKeyBits,
  type CatalogQuery,
  type Placed,
} from '../../src/server/availability/catalog';
import { FILTER_TAG_KEYS, FILTER_TAGS, LIST_SORTS } from '../../src/lib/contract/enums';
import { arrivalMs, walkMinutesFor, ARRIVAL_MARGIN_MIN, WALK_METRES_PER_MIN } from '../../src/lib/distance';
import { MINUTE_MS } from '../../src/lib/datetime';
import { reachable } from '../../src/server/stores/search';

const NOW = new Date('2026-11-20T20:07:00+09:00');
const MARKS = [15, 30, 45, 60].map((m) => Math.ceil(NOW.getTime() / (15 * MINUTE_MS)) * 15 * MINUTE_MS + (m - 15) * MINUTE_MS);

const storeArb = fc.record({
  areaId: fc.integer({ min: 1, max: 3 }),
  genre: fc.constantFrom('izakaya', 'sushi', 'ramen'),
  // Around Shibuya, a few kilometres either way, often on the same spot (ties).
  lat: fc.oneof(fc.constant(35.66), fc.double({ min: 35.62, max: 35.7, noNaN: true })),
  lng: fc.oneof(fc.constant(139.7), fc.double({ min: 139.66, max: 139.74, noNaN: true })),
  budgetMin: fc.constantFrom(1000, 2000, 3000, 5000),
  budgetSpan: fc.constantFrom(999, 2000, 5000),
  walkMinutes: fc.integer({ min: 1, max: 10 }),
  tags: fc.subarray([...Object.values(FILTER_TAGS), '日本酒が豊富']),
  mask: fc.integer({ min: 0, max: 15 }),
});

const queryArb = fc.record({
  area: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  genre: fc.option(fc.constantFrom('izakaya', 'sushi'), { nil: undefined }),
  position: fc.option(fc.record({ lat: fc.double({ min: 35.64, max: 35.68, noNaN: true }), lng: fc.double({ min: 139.68, max: 139.72, noNaN: true }) }), {
    nil: null,
  }),
  budgetMin: fc.option(fc.constantFrom(2000, 4000), { nil: undefined }),
  budgetMax: fc.option(fc.constantFrom(3000, 6000), { nil: undefined }),
  tags: fc.subarray([...FILTER_TAG_KEYS], { maxLength: 2 }).map(tagKeyBits),
  sort: fc.option(fc.constantFrom(...LIST_SORTS), { nil: undefined }),
  start: fc.integer({ min: 0, max: 12 }),
  count: fc.integer({ min: 0, max: 8 }),
});

const RAD = Math.PI / 180;
const unit = (lat: number, lng: number) => [Math.cos(lat * RAD) * Math.cos(lng * RAD), Math.cos(lat * RAD) * Math.sin(lng * RAD), Math.sin(lat * RAD)] as const;

/** The listing as the docs describe it: filter, then sort by the keys, then id; then the page. */
function reference(stores: (Placed & { id: number; mask: number })[], q: CatalogQuery) {
  const metres = (s: Placed) => {
    if (!q.position) return 0;
    const [a, b, c] = unit(s.lat, s.lng);
    const [x, y, z] = unit(q.position.lat, q.position.lng);
    return surfaceMetres(Math.hypot(a - x, b - y, c - z));
  };
  const wanted = q.tags ?? 0;
  const kept = stores.filter(
    (s) =>
      s.mask !== 0 &&
      (q.area === undefined || s.areaId === q.area) &&
      (q.genre === undefined || s.genre === q.genre) &&
      (q.budgetMin === undefined || s.budgetMax >= q.budgetMin) &&
      (q.budgetMax === undefined || s.budgetMin <= q.budgetMax) &&
      (tagBitsOf(s.tags) & wanted) === wanted,
  );
  const keys = (s: (typeof kept)[number]): number[] => {
    const d = metres(s);
    switch (q.sort) {
      case 'nearest':
        return q.position ? [d] : [s.walkMinutes];
      case 'budget':
        return [s.budgetMin, s.budgetMax, d];
      case 'soonest': {
        const first = MARKS.find((m, k) => s.mask & (1 << k) && m >= (q.position ? NOW.getTime() + walkMinutesFor(d) * MINUTE_MS : 0));
        return [first ?? Infinity, d];
      }
      default:
        return [d];
    }
  };
  const sorted = kept
    .map((s) => ({ s, k: keys(s) }))
    .sort((a, b) => {
      for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i]! < b.k[i]! ? -1 : 1;
      return a.s.id - b.s.id;
    });
  return { total: kept.length, ids: sorted.slice(q.start, q.start + q.count).map((x) => x.s.id) };
}

describe('the listing pass', () => {
  it('filters and orders as a plain sort does, on every page', () => {
    fc.assert(
      fc.property(fc.array(storeArb, { maxLength: 30 }), queryArb, (raw, q) => {
        const stores = raw.map((s, i) => ({ ...s, id: 10 + i * 3, budgetMax: s.budgetMin + s.budgetSpan }));
        const catalog = buildCatalog(new Map(stores.map((s) => [s.id, { facts: s }])));
        const masks = new Map(stores.map((s) => [s.id, s.mask]));
        const got = searchCatalog(catalog, { marks: MARKS, mask: (i) => masks.get(catalog.ids[i]!)!, now: NOW }, q);
        const want = reference(stores, q);
        expect(got.total).toBe(want.total);
        expect(got.items.map((x) => x.id)).toEqual(want.ids);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same page and total when it may stop early on the bookable-now counts kept with the masks', () => {
    fc.assert(
      fc.property(fc.array(storeArb, { maxLength: 30 }), queryArb, (raw, q) => {
        const stores = raw.map((s, i) => ({ ...s, id: 10 + i * 3, budgetMax: s.budgetMin + s.budgetSpan }));
        const catalog = buildCatalog(new Map(stores.map((s) => [s.id, { facts: s }])));
        const masks = new Map(stores.map((s) => [s.id, s.mask]));
        const mask = (i: number) => masks.get(catalog.ids[i]!)!;
        const got = searchCatalog(catalog, { marks: MARKS, mask, now: NOW, counts: countBookable(catalog, mask) }, q);
        const want = reference(stores, q);
        expect(got.total).toBe(want.total);
        expect(got.items.map((x) => x.id)).toEqual(want.ids);
      }),
      { numRuns: 400 },
    );
  });

  it('only keeps stores carrying every tag asked for, by the tag as stores write it', () => {
    expect(tagBitsOf(['禁煙', '飲み放題あり', 'Wi-Fiあり'])).toBe(tagKeyBits(['non_smoking', 'all_you_can_drink']));
    expect(tagBitsOf([])).toBe(0);
  });

  it('finds the first mark set at or after an instant', () => {
    expect(firstMarkFrom(MARKS, 0b1010, 0)).toBe(MARKS[1]);
    expect(firstMarkFrom(MARKS, 0b1010, MARKS[1]! + 1)).toBe(MARKS[3]);
    expect(firstMarkFrom(MARKS, 0b0010, MARKS[2]!)).toBe(Infinity);
  });
});

describe('arrival-aware starts', () => {
  const slot = (ms: number) => ({ start: new Date(ms), end: new Date(ms + 90 * MINUTE_MS), freeTables: 2 });
  const answer = { nextSlots: MARKS.map(slot), freeTables: 2 };

  it('walks at 80 m a minute with a margin', () => {
    expect(walkMinutesFor(0)).toBe(ARRIVAL_MARGIN_MIN);
    expect(walkMinutesFor(WALK_METRES_PER_MIN * 10 + 1)).toBe(11 + ARRIVAL_MARGIN_MIN);
    expect(arrivalMs(NOW, 800)).toBe(NOW.getTime() + (10 + ARRIVAL_MARGIN_MIN) * MINUTE_MS);
  });

  it('offers first the start a diner walking from there can make', () => {
    // 2 km: 25 + 5 minutes, so 20:37 at the earliest; 20:15 and 20:30 are out of reach.
    const r = reachable(NOW, 2000, answer, () => null);
    expect(r.arrival.getTime()).toBe(NOW.getTime() + 30 * MINUTE_MS);
    expect(r.nextSlots.map((s) => s.start.getTime())).toEqual(MARKS.filter((m) => m >= r.arrival.getTime()));
    expect(r.nextSlots[0]!.start.getTime()).toBeGreaterThanOrEqual(r.arrival.getTime());
  });

  it('looks past the hour when no start within it can be reached, and offers nothing it cannot reach', () => {
    const later = slot(MARKS[3]! + 60 * MINUTE_MS);
    let asked: [number, number] | null = null;
    const far = reachable(NOW, 8000, answer, (from, to) => ((asked = [from, to]), later));
    expect(asked![0]).toBe(far.arrival.getTime());
    expect(far.nextSlots).toEqual([later]);
    expect(reachable(NOW, 8000, answer, () => null).nextSlots).toEqual([]);
    // Close by, every start stays.
    expect(reachable(NOW, 0, answer, () => null).nextSlots).toHaveLength(MARKS.length);
  });
});
