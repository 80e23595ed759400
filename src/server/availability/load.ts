import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bookings, storeHours, stores, storeTables } from '../db/schema';
import type { StoreState } from './rules';

/**
 * What the rules need to know about some stores for the period [from, to): weekly hours, stay
 * length, tables, and the confirmed bookings holding those tables in that period. Three indexed
 * queries whatever the number of stores.
 */
export async function loadStoreStates(db: Db, storeIds: readonly number[], from: Date, to: Date): Promise<Map<number, StoreState>> {
  const states = new Map<number, StoreState & { hours: StoreState['hours'][number][]; tables: StoreState['tables'][number][]; busy: StoreState['busy'][number][] }>();
  if (!storeIds.length) return states;
  const ids = [...new Set(storeIds)];
  const [storeRows, hourRows, tableRows, bookingRows] = await Promise.all([
    db.select({ id: stores.id, stayMinutes: stores.stayMinutes }).from(stores).where(inArray(stores.id, ids)),
    db
      .select({ storeId: storeHours.storeId, weekday: storeHours.weekday, opensMin: storeHours.opensMin, closesMin: storeHours.closesMin })
      .from(storeHours)
      .where(inArray(storeHours.storeId, ids)),
    db
      .select({ storeId: storeTables.storeId, id: storeTables.id, kind: storeTables.kind, minParty: storeTables.minParty, maxParty: storeTables.maxParty })
      .from(storeTables)
      .where(inArray(storeTables.storeId, ids)),
    db
      .select({ storeId: bookings.storeId, tableId: bookings.tableId, start: bookings.startsAt, end: bookings.endsAt })
      .from(bookings)
      .where(and(inArray(bookings.storeId, ids), eq(bookings.status, 'confirmed'), lt(bookings.startsAt, to), gt(bookings.endsAt, from))),
  ]);
  for (const s of storeRows) states.set(s.id, { stayMinutes: s.stayMinutes, hours: [], tables: [], busy: [] });
  for (const h of hourRows) states.get(h.storeId)?.hours.push({ weekday: h.weekday, opensMin: h.opensMin, closesMin: h.closesMin });
  for (const t of tableRows) states.get(t.storeId)?.tables.push({ id: t.id, kind: t.kind, minParty: t.minParty, maxParty: t.maxParty });
  for (const b of bookingRows) states.get(b.storeId)?.busy.push({ tableId: b.tableId, start: b.start, end: b.end });
  return states;
}
