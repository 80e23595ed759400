import type { Db } from '../db/client';
import { businessDayRange, slotsForDate, type Slot } from './rules';
import { loadStoreStates } from './load';

export * from './rules';
export { loadStoreStates } from './load';
export { availabilityIndex, availabilityView } from './instance';
export type { AvailabilityView } from './engine';

/** The starts of one business day at one store for a party, with free-table counts; null for an unknown store. */
export async function storeDaySlots(db: Db, storeId: number, date: string, party: number, now = new Date()): Promise<Slot[] | null> {
  const { start, end } = businessDayRange(date);
  // Bookings that began before the day or run past its end still hold their tables.
  const states = await loadStoreStates(db, [storeId], new Date(start.getTime() - 24 * 3600_000), new Date(end.getTime() + 24 * 3600_000));
  const state = states.get(storeId);
  return state ? slotsForDate(state, party, date, now) : null;
}
