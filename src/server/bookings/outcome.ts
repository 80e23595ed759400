/**
 * What the booking service answers: a success that says what changed at the store, or a reason
 * for refusing. Nothing here knows of HTTP; src/server/bookings/http.ts maps these to statuses.
 */
import type { Slot, StartProblem } from '../availability';
import type { BookingView } from './view';

/** A table held for a stay. */
export interface Hold {
  tableId: number;
  start: Date;
  end: Date;
}

/**
 * What a committed booking, change or cancellation did at one store, for whoever keeps
 * availability up to date afterwards: the hold it gave up and the hold it took, if any.
 */
export interface StoreChange {
  storeId: number;
  released: Hold | null;
  taken: Hold | null;
}

export type Refusal =
  | { kind: 'store_not_found' }
  | { kind: 'not_found' }
  | { kind: 'bad_start'; problem: StartProblem }
  | { kind: 'party_too_big'; max: number }
  /** No fitting table is free then; the nearest free starts that day for that party (`asked`: the store and party they were looked up for). */
  | { kind: 'slot_taken'; nextSlots: Slot[]; asked?: { storeId: number; party: number } }
  /**
   * The diner already has an overlapping booking at this store (`first`: which, told only to its
   * account or the device it was made on; `guest`: a guest's, whose page is the guest one).
   */
  | { kind: 'duplicate'; first?: { id: number; storeId: number; guest: boolean } }
  /** Cancelled, or already started. */
  | { kind: 'not_changeable' }
  /** The fee is due: moving the start or shrinking the party goes through the store (src/lib/contract/fee.ts). */
  | { kind: 'needs_store'; phone: string }
  | { kind: 'not_cancellable' };

export type Booked = { kind: 'booked'; booking: BookingView; change: StoreChange /** Guests only, shown once. */; editToken?: string };
export type Changed = { kind: 'changed'; booking: BookingView; change: StoreChange };
/** `change` is null when the booking was cancelled already (cancelling twice is harmless). */
export type Cancelled = { kind: 'cancelled'; booking: BookingView; change: StoreChange | null };

export const holdOf = (b: Pick<BookingView, 'tableId' | 'start' | 'end'>): Hold => ({ tableId: b.tableId, start: b.start, end: b.end });
