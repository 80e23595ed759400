import { and, eq, gt, gte, inArray, lt, ne } from 'drizzle-orm';
import type { Db } from '../db/types';
import { clock } from '../clock';
import { bookings, watchHolds, storeClosures, storeHours, stores, storeTables } from '../db/schema';
import { addTokyoDays, tokyoParts } from '../../lib/datetime';
import { closureOverride, turnTimesOf, type Busy, type DayOverride, type StoreState, type TableInfo, type TurnTime, type WeeklyHours } from './rules';

/**
 * A store's hours, stay length and tables change only when its manager edits them (on the store
 * host), while every listing request needs them for hundreds of stores: they are kept in memory
 * for a minute, or until a change to the store is announced (forgetStatic). Bookings are never
 * cached. Keyed by database so tests on two engines stay apart.
 */
const STATIC_TTL_MS = 60_000;
type StaticState = { stayMinutes: number; turnTimes: TurnTime[]; hours: WeeklyHours[]; overrides: DayOverride[]; tables: TableInfo[]; loadedAt: number };
// Bound: one entry per store of the database (as the availability index holds), a few hundred bytes each.
const staticCache = new WeakMap<Db, Map<number, StaticState>>();
/** When each store last announced a change (epoch ms): older cache entries are read again. Bound: one number per store. */
const changedAt = new Map<number, number>();

/** Called for every availability change heard, here or from another instance. */
export function forgetStatic(storeId: number): void {
  changedAt.set(storeId, Date.now());
}

async function staticStates(db: Db, ids: readonly number[]): Promise<Map<number, StaticState>> {
  let cache = staticCache.get(db);
  if (!cache) staticCache.set(db, (cache = new Map()));
  const now = Date.now();
  const stale = ids.filter((id) => {
    const entry = cache.get(id);
    return !entry || now - entry.loadedAt > STATIC_TTL_MS || entry.loadedAt <= (changedAt.get(id) ?? -1);
  });
  if (stale.length) {
    // One-off days from two days back (by the server's clock, as the rules read them): a night that began then may still be open.
    const since = addTokyoDays(tokyoParts(clock.now()).date, -2);
    const [storeRows, hourRows, tableRows, closureRows] = await Promise.all([
      db.select({ id: stores.id, stayMinutes: stores.stayMinutes, turnTimes: stores.turnTimes }).from(stores).where(inArray(stores.id, stale)),
      db
        .select({ storeId: storeHours.storeId, weekday: storeHours.weekday, opensMin: storeHours.opensMin, closesMin: storeHours.closesMin })
        .from(storeHours)
        .where(inArray(storeHours.storeId, stale)),
      db
        .select({
          storeId: storeTables.storeId,
          id: storeTables.id,
          kind: storeTables.kind,
          minParty: storeTables.minParty,
          maxParty: storeTables.maxParty,
          online: storeTables.online,
        })
        .from(storeTables)
        .where(inArray(storeTables.storeId, stale)),
      db
        .select({ storeId: storeClosures.storeId, date: storeClosures.date, hours: storeClosures.hours })
        .from(storeClosures)
        .where(and(inArray(storeClosures.storeId, stale), gte(storeClosures.date, since))),
    ]);
    for (const id of stale) cache.delete(id);
    for (const s of storeRows)
      cache.set(s.id, { stayMinutes: s.stayMinutes, turnTimes: turnTimesOf(s.turnTimes), hours: [], overrides: [], tables: [], loadedAt: now });
    for (const h of hourRows) cache.get(h.storeId)?.hours.push({ weekday: h.weekday, opensMin: h.opensMin, closesMin: h.closesMin });
    for (const c of closureRows) cache.get(c.storeId)?.overrides.push(closureOverride(c.date, c.hours));
    for (const t of tableRows) cache.get(t.storeId)?.tables.push({ id: t.id, kind: t.kind, minParty: t.minParty, maxParty: t.maxParty, online: t.online });
  }
  return cache;
}

/**
 * What the rules need to know about some stores for the period [from, to): weekly hours, stay
 * length, tables, and the confirmed bookings holding those tables in that period.
 */
export async function loadStoreStates(
  db: Db,
  storeIds: readonly number[],
  from: Date,
  to: Date,
  holds: { now?: Date; claiming?: number } = {},
): Promise<Map<number, StoreState>> {
  const states = new Map<number, StoreState>();
  if (!storeIds.length) return states;
  const ids = [...new Set(storeIds)];
  const [statics, bookingRows, holdRows] = await Promise.all([
    staticStates(db, ids),
    db
      .select({ storeId: bookings.storeId, tableId: bookings.tableId, start: bookings.startsAt, end: bookings.endsAt })
      .from(bookings)
      .where(and(inArray(bookings.storeId, ids), eq(bookings.status, 'confirmed'), lt(bookings.startsAt, to), gt(bookings.endsAt, from))),
    // A start held for a watcher is taken for everyone else until its deadline (by the server's
    // clock, or the caller's `now`, whether or not it has been marked expired yet); `claiming` is
    // the hold being booked, its claimer's own.
    db
      .select({ storeId: watchHolds.storeId, tableId: watchHolds.tableId, start: watchHolds.startsAt, end: watchHolds.endsAt })
      .from(watchHolds)
      .where(
        and(
          inArray(watchHolds.storeId, ids),
          eq(watchHolds.state, 'offered'),
          gt(watchHolds.expiresAt, holds.now ?? clock.now()),
          lt(watchHolds.startsAt, to),
          gt(watchHolds.endsAt, from),
          holds.claiming !== undefined ? ne(watchHolds.id, holds.claiming) : undefined,
        ),
      ),
  ]);
  const busy = new Map<number, Busy[]>();
  for (const b of [...bookingRows, ...holdRows]) {
    const list = busy.get(b.storeId) ?? [];
    list.push({ tableId: b.tableId, start: b.start, end: b.end });
    busy.set(b.storeId, list);
  }
  for (const id of ids) {
    const s = statics.get(id);
    if (s)
      states.set(id, {
        stayMinutes: s.stayMinutes,
        turnTimes: s.turnTimes,
        hours: s.hours,
        overrides: s.overrides,
        tables: s.tables,
        busy: busy.get(id) ?? [],
      });
  }
  return states;
}
