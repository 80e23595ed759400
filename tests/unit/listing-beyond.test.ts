/**
 * The groups after "now" (catalog.ts beyondCatalog) are exactly a plain filter-then-sort over the
 * same stores: the matching stores not bookable now with a next start, split at the end of the
 * business day, each by start then id, the first `caps` of each with exact totals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { beyondCatalog, buildCatalog, type CatalogQuery } from '../../src/server/availability/catalog';

const SPLIT = 1_000;

const storeArb = fc.record({
  areaId: fc.integer({ min: 1, max: 3 }),
  genre: fc.constantFrom('izakaya', 'sushi'),
  lat: fc.constant(35.66),
  lng: fc.constant(139.7),
  budgetMin: fc.constantFrom(1000, 3000),
  budgetMax: fc.constantFrom(2999, 6000),
  walkMinutes: fc.constant(3),
  tags: fc.constant([] as string[]),
  // Bookable now (a mark set), or not; next start before or after the split, or none (Infinity); ties often.
  mask: fc.constantFrom(0, 0, 0, 1),
  next: fc.oneof(fc.constantFrom(100, 500, 1_000, 1_500), fc.integer({ min: 0, max: 2_000 }), fc.constant(Infinity)),
});

const queryArb = fc.record({
  area: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  genre: fc.option(fc.constantFrom('izakaya', 'sushi'), { nil: undefined }),
  budgetMin: fc.option(fc.constant(3500), { nil: undefined }),
});

describe('the groups after now', () => {
  it('are the plain filter and sort, split at the end of the day, capped with exact totals', () => {
    fc.assert(
      fc.property(
        fc.array(storeArb, { maxLength: 40 }),
        queryArb,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        (rows, q, later, another) => {
          const stores = rows.map((s, i) => ({ ...s, id: 10 + i * 3 }));
          const catalog = buildCatalog(new Map(stores.map((s) => [s.id, { facts: s }])));
          const bySlot = (i: number) => stores.find((s) => s.id === catalog.ids[i])!;
          const query: Omit<CatalogQuery, 'start' | 'count'> = q;
          const found = beyondCatalog(catalog, { mask: (i) => bySlot(i).mask }, query, (i) => bySlot(i).next, SPLIT, { later, another });
          const kept = stores
            .filter((s) => s.mask === 0 && s.next !== Infinity)
            .filter(
              (s) =>
                (q.area === undefined || s.areaId === q.area) &&
                (q.genre === undefined || s.genre === q.genre) &&
                (q.budgetMin === undefined || s.budgetMax >= q.budgetMin),
            )
            .sort((a, b) => a.next - b.next || a.id - b.id);
          const group = (ss: typeof kept, cap: number) => ({ items: ss.slice(0, cap).map((s) => ({ id: s.id, startMs: s.next })), total: ss.length });
          expect(found.later).toEqual(
            group(
              kept.filter((s) => s.next < SPLIT),
              later,
            ),
          );
          expect(found.another).toEqual(
            group(
              kept.filter((s) => s.next >= SPLIT),
              another,
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
