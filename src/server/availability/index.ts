import type { Db } from '../db/types';
import type { TableKind } from '../../lib/contract/enums';
import { businessDayRange, ofKind, slotsForDate, type Slot } from './rules';
import { loadStoreStates } from './load';
import { availabilityView } from './instance';
import { clock } from '../clock';

export * from './rules';
export { loadStoreStates } from './load';
export { availabilityIndex, availabilityView } from './instance';
export type { AvailabilityView } from './engine';

/** The starts of one business day at one store for a party (at tables of the kind, given one), with free-table counts; null for an unknown store. */
export async function storeDaySlots(db: Db, storeId: number, date: string, party: number, now = clock.now(), kind?: TableKind | null): Promise<Slot[] | null> {
  const { start, end } = businessDayRange(date);
  // Bookings that began before the day or run past its end still hold their tables.
  const states = await loadStoreStates(db, [storeId], new Date(start.getTime() - 24 * 3600_000), new Date(end.getTime() + 24 * 3600_000));
  const state = states.get(storeId);
  return state ? slotsForDate(ofKind(state, kind), party, date, now) : null;
}

/**
 * A day's slots for the store page, its API and the booking form: from the index, or from the
 * bookings when it cannot answer (LISTEN down, a day it does not hold yet); null for an unknown store.
 */
export async function daySlots(db: Db, storeId: number, date: string, party: number, now = clock.now(), kind?: TableKind | null): Promise<Slot[] | null> {
  const view = await availabilityView(db, now, [storeId]);
  return view?.daySlots(storeId, date, party, kind ?? undefined) ?? storeDaySlots(db, storeId, date, party, now, kind);
}
