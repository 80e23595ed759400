/**
 * The diner home's choice among the day's banners: at most HOME_BANNERS_MAX, one per store, the
 * same all day, and over consecutive days every store's banners are shown equally often.
 */
import { describe, expect, it } from 'vitest';
import { pickBanners } from '../../src/server/staff/banners';
import { HOME_BANNERS_MAX } from '../../src/lib/contract/limits';
import { addTokyoDays } from '../../src/lib/datetime';

const banner = (id: number, storeId: number) => ({ id, storeId });

describe('pickBanners', () => {
  it('shows every banner when there are few, one per store', () => {
    expect(
      pickBanners([banner(2, 20), banner(1, 10)], '2026-12-02')
        .map((b) => b.id)
        .sort(),
    ).toEqual([1, 2]);
    const picked = pickBanners([banner(1, 10), banner(2, 10), banner(3, 10)], '2026-12-02');
    expect(picked).toHaveLength(1);
  });

  it('gives the same choice all day, whatever the order read', () => {
    const active = Array.from({ length: 9 }, (_, i) => banner(i + 1, 100 + i));
    const a = pickBanners(active, '2026-12-02');
    const b = pickBanners([...active].reverse(), '2026-12-02');
    expect(a).toHaveLength(HOME_BANNERS_MAX);
    expect(b).toEqual(a);
  });

  it('lets a store’s banners take turns even when the store comes round every other day', () => {
    // Two stores, one slot a day: each store every other day; the first store's two banners alternate.
    const active = [banner(1, 1), banner(2, 1), banner(3, 2)];
    const ids = Array.from({ length: 8 }, (_, d) => pickBanners(active, addTokyoDays('2026-12-01', d), 1)[0]!.id).filter((id) => id !== 3);
    expect(ids).toHaveLength(4);
    expect(new Set(ids)).toEqual(new Set([1, 2]));
  });

  it('shares the slots fairly between stores, and a store’s banners take turns, over the days', () => {
    // Seven stores, the first with three banners.
    const active = [banner(1, 1), banner(2, 1), banner(3, 1), ...Array.from({ length: 6 }, (_, i) => banner(10 + i, 2 + i))];
    const shownStore = new Map<number, number>();
    const shownBanner = new Map<number, number>();
    const days = 7 * 3 * 4;
    for (let d = 0; d < days; d++) {
      const picked = pickBanners(active, addTokyoDays('2026-12-01', d));
      expect(new Set(picked.map((b) => b.storeId)).size).toBe(picked.length);
      for (const b of picked) {
        shownStore.set(b.storeId, (shownStore.get(b.storeId) ?? 0) + 1);
        shownBanner.set(b.id, (shownBanner.get(b.id) ?? 0) + 1);
      }
    }
    const perStore = [...shownStore.values()];
    expect(perStore).toHaveLength(7);
    expect(Math.max(...perStore) - Math.min(...perStore)).toBeLessThanOrEqual(1);
    // Store 1's three banners took turns: each had as many days as the others, give or take one.
    const turns = [1, 2, 3].map((id) => shownBanner.get(id) ?? 0);
    expect(Math.min(...turns)).toBeGreaterThan(0);
    expect(Math.max(...turns) - Math.min(...turns)).toBeLessThanOrEqual(1);
  });
});
