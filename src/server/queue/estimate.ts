/**
 * The 順番待ち's estimated wait, as a range: when would this party get a table, if the parties
 * ahead are seated first, each at the smallest free table that fits them for their turn time, and
 * the bookings already made keep their tables? Pure, so it is tested alone; the range is widened
 * around that one figure because stays run short and long and parties ahead leave, and a page that
 * promises 「12分」 is wrong nearly always.
 */
import { MINUTE_MS } from '../../lib/datetime';
import { freeTablesFor, isOpenFor, openingIntervals, smallestFit, stayFor, type Busy, type StoreState } from '../availability/rules';

/** Seating is tried every this many minutes from now. */
const STEP_MIN = 5;
/** Beyond this the store cannot say: no estimate rather than a guess. */
export const ESTIMATE_HORIZON_MIN = 4 * 60;
/** The range around the simulated figure: stays end earlier or later, parties ahead drop out. */
const LOW = 0.75;
const HIGH = 1.25;
/** Never narrower than this (minutes): a range, not a false minute. */
const MIN_SPAN = 10;

export interface WaitEstimate {
  min_minutes: number;
  max_minutes: number;
}

/** The minutes from `now` until a table for `party` frees, or null beyond the horizon (or none fits). */
export function firstSeat(store: StoreState, busy: Busy[], party: number, now: Date): { at: Date; busy: Busy } | null {
  const stay = stayFor(store, party) * MINUTE_MS;
  const horizon = now.getTime() + ESTIMATE_HORIZON_MIN * MINUTE_MS;
  const intervals = openingIntervals(store.hours, now, new Date(horizon + stay), store.overrides);
  // On 5-minute marks (19:05, 19:10 …), so the answer does not drift with the seconds of `now`.
  const step = STEP_MIN * MINUTE_MS;
  for (let t = Math.ceil(now.getTime() / step) * step; t <= horizon; t += step) {
    const start = new Date(t);
    const end = new Date(t + stay);
    if (!isOpenFor(intervals, start, end)) continue;
    // Walk-in tables too: the store seats the queue at any of its tables.
    const table = smallestFit(freeTablesFor(store.tables, busy, start, end, party, true));
    if (table) return { at: start, busy: { tableId: table.id, start, end } };
  }
  return null;
}

/**
 * The wait for a party of `party` with `ahead` (the party sizes of those before it, in order)
 * still to be seated; null when no table would be free for it within the horizon.
 */
export function estimateWait(store: StoreState, party: number, ahead: readonly number[], now: Date): WaitEstimate | null {
  const busy = [...store.busy];
  for (const size of ahead) {
    // A party ahead that no table fits today is skipped, not a wall in front of everyone after it.
    const seat = firstSeat(store, busy, size, now);
    if (seat) busy.push(seat.busy);
  }
  const mine = firstSeat(store, busy, party, now);
  if (!mine) return null;
  return waitRange((mine.at.getTime() - now.getTime()) / MINUTE_MS);
}

/** The range shown for a simulated wait of `minutes`, in 5-minute steps. */
export function waitRange(minutes: number): WaitEstimate {
  const min = Math.max(0, Math.floor((minutes * LOW) / STEP_MIN) * STEP_MIN);
  const max = Math.max(min + MIN_SPAN, Math.ceil((minutes * HIGH) / STEP_MIN) * STEP_MIN);
  return { min_minutes: min, max_minutes: max };
}
