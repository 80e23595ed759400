/**
 * The discovery services on both engines, at a fixed "now" (Friday 20:07 JST, the seed's
 * bookings made relative to it), so that the bookable-now answers are deterministic.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { bookings, stores, storeTables, users } from '../../src/server/db/schema';
import { availabilityIndex, bookableNow, loadStoreStates, nextMarks } from '../../src/server/availability';
import { listAreas } from '../../src/server/stores/areas';
import { listQuerySchema } from '../../src/server/stores/query';
import { searchStores, storeCards } from '../../src/server/stores/search';
import { getStore } from '../../src/server/stores/detail';
import { addFavourite, favouriteIds, listFavourites, removeFavourite } from '../../src/server/favourites';
import { HISTORY_LIMIT, listHistory, recordView, removeView } from '../../src/server/history';
import { forEachEngine } from '../helpers/db';
import { publishAvailabilityChange } from '../../src/server/events';

const NOW = new Date('2026-11-20T20:07:00+09:00');
const q = (input: Record<string, unknown> = {}) => listQuerySchema.parse(input);

async function all(db: Parameters<typeof searchStores>[0], input: Record<string, unknown>) {
  const first = await searchStores(db, q({ ...input, per_page: 50 }), NOW);
  const items = [...first.items];
  for (let page = 2; items.length < first.total; page++) items.push(...(await searchStores(db, q({ ...input, per_page: 50, page }), NOW)).items);
  return { total: first.total, items };
}

forEachEngine(
  'discovery services',
  (get) => {
    it('lists exactly the stores bookable now, with total counting them all', async () => {
      const { db } = get();
      const { total, items } = await all(db, {});
      expect(total).toBeGreaterThan(20);
      expect(items).toHaveLength(total);
      // Independent check: apply the rule to every store.
      const ids = (await db.select({ id: stores.id }).from(stores)).map((r) => r.id);
      const states = await loadStoreStates(db, ids, new Date(NOW.getTime() - 86400_000), new Date(NOW.getTime() + 86400_000));
      const expected = ids.filter((id) => bookableNow(states.get(id)!, 2, NOW).nextSlots.length > 0);
      expect(items.map((c) => c.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      const marks = nextMarks(NOW).map((d) => d.getTime());
      for (const c of items) {
        expect(c.freeTables).toBeGreaterThan(0);
        expect(c.nextSlots.length).toBeGreaterThan(0);
        for (const s of c.nextSlots) expect(marks).toContain(s.start.getTime());
      }
      // Some stores are open but full, or closed: the listing is not everything.
      expect(total).toBeLessThan(ids.length);
    });

    it('pages without overlap, in a stable order', async () => {
      const { db } = get();
      const p1 = await searchStores(db, q({ per_page: 5 }), NOW);
      const p2 = await searchStores(db, q({ per_page: 5, page: 2 }), NOW);
      expect(p1.items).toHaveLength(5);
      expect(p2.page).toBe(2);
      expect(p1.items.map((c) => c.id).some((id) => p2.items.some((c) => c.id === id))).toBe(false);
      expect((await searchStores(db, q({ per_page: 5 }), NOW)).items.map((c) => c.id)).toEqual(p1.items.map((c) => c.id));
      const beyond = await searchStores(db, q({ page: 999 }), NOW);
      expect(beyond.items).toEqual([]);
      expect(beyond.total).toBe(p1.total);
    });

    it('finds 焼肉 and 渋谷 by keyword, alone and together', async () => {
      const { db } = get();
      const yakiniku = await all(db, { name: '焼肉' });
      expect(yakiniku.total).toBeGreaterThan(0);
      for (const c of yakiniku.items) expect(c.genre === 'yakiniku' || c.name.includes('焼肉')).toBe(true);
      const shibuya = await all(db, { name: '渋谷' });
      expect(shibuya.total).toBeGreaterThan(0);
      for (const c of shibuya.items) expect(c.areaName === '渋谷' || c.station.includes('渋谷') || c.name.includes('渋谷')).toBe(true);
      const both = await all(db, { name: '渋谷 焼肉' });
      expect(both.total).toBeGreaterThan(0);
      for (const c of both.items) expect(yakiniku.items.some((y) => y.id === c.id) && shibuya.items.some((s) => s.id === c.id)).toBe(true);
      expect((await searchStores(db, q({ name: 'ヤキニク' }), NOW)).total).toBe((await searchStores(db, q({ name: 'やきにく' }), NOW)).total);
      expect((await searchStores(db, q({ name: 'zzzz存在しない' }), NOW)).total).toBe(0);
    });

    it('filters by area and genre', async () => {
      const { db } = get();
      const areas = await listAreas(db);
      expect(areas.length).toBeGreaterThanOrEqual(8);
      expect(areas.reduce((n, a) => n + a.storeCount, 0)).toBe((await db.select({ id: stores.id }).from(stores)).length);
      const shibuya = areas.find((a) => a.name === '渋谷')!;
      const inArea = await all(db, { area: shibuya.id });
      expect(inArea.total).toBeGreaterThan(0);
      for (const c of inArea.items) expect(c.areaId).toBe(shibuya.id);
      const izakaya = await all(db, { genre: 'izakaya' });
      expect(izakaya.total).toBeGreaterThan(0);
      for (const c of izakaya.items) expect(c.genre).toBe('izakaya');
    });

    it('orders nearest first when given a position, with distances', async () => {
      const { db } = get();
      const shibuyaStation = { lat: 35.658, lng: 139.7016 };
      const { items, total } = await all(db, shibuyaStation);
      expect(total).toBe((await searchStores(db, q(), NOW)).total);
      const d = items.map((c) => c.distanceM!);
      expect(d.every((x) => typeof x === 'number')).toBe(true);
      expect([...d].sort((a, b) => a - b)).toEqual(d);
      expect(d[0]).toBeLessThan(2000);
      expect((await searchStores(db, q(), NOW)).items[0]!.distanceM).toBeNull();
    });

    it('only offers stores with a table fitting the party', async () => {
      const { db } = get();
      // The largest party some store can seat now: a real answer to check, never an empty one.
      let party = 20;
      let big = await all(db, { party });
      while (big.total === 0 && party > 2) big = await all(db, { party: --party });
      expect(party).toBeGreaterThanOrEqual(6);
      const small = await all(db, { party: 2 });
      expect(big.total).toBeGreaterThan(0);
      expect(big.total).toBeLessThan(small.total);
      for (const c of big.items) {
        const tables = await db.select().from(storeTables).where(eq(storeTables.storeId, c.id));
        expect(tables.some((t) => t.minParty <= party && t.maxParty >= party)).toBe(true);
      }
    });

    it('drops a store whose last fitting table is booked, and brings it back on cancellation', async () => {
      const { db } = get();
      const { items } = await all(db, { party: 2 });
      const target = items.find((c) => c.freeTables === 1) ?? items[0]!;
      const tables = await db.select().from(storeTables).where(eq(storeTables.storeId, target.id));
      const fitting = tables.filter((t) => t.minParty <= 2 && t.maxParty >= 2);
      const made: number[] = [];
      // Hold every fitting table over the whole next-hour window.
      const stay = (await getStore(db, target.id))!.stayMinutes;
      for (const t of fitting) {
        const busy = await db.select().from(bookings).where(eq(bookings.tableId, t.id));
        const from = new Date(NOW.getTime() - 5 * 60_000);
        const to = new Date(NOW.getTime() + (75 + stay) * 60_000);
        if (busy.some((b) => b.status === 'confirmed' && b.startsAt < to && from < b.endsAt)) continue;
        const [row] = await db
          .insert(bookings)
          .values({
            code: `T-${t.id}-${Date.now()}`,
            storeId: target.id,
            tableId: t.id,
            userId: null,
            partySize: 2,
            startsAt: from,
            endsAt: to,
            guestName: 'テスト',
          })
          .returning({ id: bookings.id });
        made.push(row!.id);
      }
      // Every change announces itself, as the booking service does after its commit.
      await publishAvailabilityChange(db, [target.id]);
      expect((await all(db, { party: 2 })).items.some((c) => c.id === target.id)).toBe(false);
      await db.update(bookings).set({ status: 'cancelled', cancelledAt: NOW }).where(eq(bookings.id, made[0]!));
      await publishAvailabilityChange(db, [target.id]);
      const back = (await all(db, { party: 2 })).items.find((c) => c.id === target.id);
      expect(back?.freeTables).toBeGreaterThan(0);
      for (const id of made) await db.delete(bookings).where(eq(bookings.id, id));
      await publishAvailabilityChange(db, [target.id]);
    });

    it('keeps favourites per user, idempotent, refusing unknown stores', async () => {
      const { db } = get();
      const [u] = await db
        .insert(users)
        .values({ email: `fav-${Date.now()}@example.jp`, passwordHash: 'x', name: 'お気に入り' })
        .returning({ id: users.id });
      const [other] = await db
        .insert(users)
        .values({ email: `fav2-${Date.now()}@example.jp`, passwordHash: 'x', name: '別の人' })
        .returning({ id: users.id });
      expect(await addFavourite(db, u!.id, 3)).toBe(true);
      expect(await addFavourite(db, u!.id, 3)).toBe(true);
      expect(await addFavourite(db, u!.id, 5)).toBe(true);
      expect(await addFavourite(db, u!.id, 999_999)).toBe(false);
      expect((await listFavourites(db, u!.id, 2, NOW)).map((c) => c.id).sort()).toEqual([3, 5]);
      expect([...(await favouriteIds(db, u!.id, [1, 3, 5]))].sort()).toEqual([3, 5]);
      expect(await favouriteIds(db, other!.id, [1, 3, 5])).toEqual(new Set());
      expect(await removeFavourite(db, u!.id, 3)).toBe(true);
      expect((await listFavourites(db, u!.id, 2, NOW)).map((c) => c.id)).toEqual([5]);
    });

    it('records views newest first, refreshing repeats and capping the history', async () => {
      const { db } = get();
      const [u] = await db
        .insert(users)
        .values({ email: `hist-${Date.now()}@example.jp`, passwordHash: 'x', name: '履歴' })
        .returning({ id: users.id });
      const base = NOW.getTime();
      for (let i = 1; i <= HISTORY_LIMIT + 5; i++) await recordView(db, u!.id, i, new Date(base + i * 1000));
      let list = await listHistory(db, u!.id, 2, NOW);
      expect(list).toHaveLength(HISTORY_LIMIT);
      expect(list[0]!.id).toBe(HISTORY_LIMIT + 5);
      expect(list.some((c) => c.id <= 5)).toBe(false);
      await recordView(db, u!.id, 10, new Date(base + 999_000));
      list = await listHistory(db, u!.id, 2, NOW);
      expect(list[0]!.id).toBe(10);
      expect(list).toHaveLength(HISTORY_LIMIT);
      await removeView(db, u!.id, 10);
      expect((await listHistory(db, u!.id, 2, NOW))[0]!.id).toBe(HISTORY_LIMIT + 5);
      // Cards carry live state even when not bookable now.
      expect((await storeCards(db, [1, 2], 2, NOW)).map((c) => c.id)).toEqual([1, 2]);
    });

    it('gives the same pages, totals and distances from the index as from the bookings', async () => {
      const { db } = get();
      const shibuya = (await listAreas(db)).find((a) => a.name === '渋谷')!;
      const queries = [
        {},
        { party: 4 },
        { area: shibuya.id },
        { genre: 'izakaya', party: 3 },
        { name: '焼肉' },
        { lat: 35.658, lng: 139.7016 },
        { lat: 35.7141, lng: 139.7774, party: 6, per_page: 7, page: 2 },
        { lat: 35.69, lng: 139.7, genre: 'sushi', per_page: 50 },
      ];
      const shape = (p: Awaited<ReturnType<typeof searchStores>>) => ({
        total: p.total,
        items: p.items.map((c) => ({
          id: c.id,
          name: c.name,
          area: c.areaName,
          free: c.freeTables,
          next: c.nextSlots.map((x) => x.start.getTime()),
          d: c.distanceM,
        })),
      });
      const fromIndex = [];
      for (const input of queries) fromIndex.push(shape(await searchStores(db, q(input), NOW)));
      const index = availabilityIndex(db);
      index.suspend('test: the database answers');
      try {
        for (const [i, input] of queries.entries()) {
          const fromDb = shape(await searchStores(db, q(input), NOW));
          expect(fromDb.total, JSON.stringify(input)).toBeGreaterThan(0);
          expect(fromIndex[i]!.total, JSON.stringify(input)).toBe(fromDb.total);
          expect(fromIndex[i]!.items.map((c) => ({ ...c, d: null }))).toEqual(fromDb.items.map((c) => ({ ...c, d: null })));
          // Metres computed in JavaScript as earthdistance computes them in SQL.
          fromIndex[i]!.items.forEach((c, k) => expect(Math.abs((c.d ?? 0) - (fromDb.items[k]!.d ?? 0))).toBeLessThanOrEqual(1));
        }
      } finally {
        await index.resync('test');
      }
    });
  },
  { seed: true, now: NOW },
);
