/**
 * Running late: when a diner may tell the store they are on their way or late, and when the store
 * may release the table of a party that has not come. One rule for the diner's page, its API, the
 * store's ledger and the automatic release.
 */
import { LATE_NOTICE_OPENS_MINUTES } from './limits';
import type { LateNotice } from './enums';

const MINUTE_MS = 60_000;

/** How many minutes late each notice says the party will be (on the way: none). */
export const LATE_MINUTES: Record<LateNotice, number> = { on_way: 0, late_10: 10, late_15: 15 };

interface Due {
  start: Date;
  status: string;
  attendance: string | null;
  /** The store's grace period, in minutes after the start. */
  graceMinutes: number;
}

/** The end of the grace period: from then a party not arrived may have its table released. */
export const releaseFrom = (b: Pick<Due, 'start' | 'graceMinutes'>) => new Date(b.start.getTime() + b.graceMinutes * MINUTE_MS);

/**
 * A notice may be sent while the booking is upcoming: confirmed, the party not yet marked at the
 * door, from LATE_NOTICE_OPENS_MINUTES before the start until the grace period ends.
 */
export function lateNoticeOpen(b: Due, now: Date): boolean {
  const at = now.getTime();
  return b.status === 'confirmed' && b.attendance === null && at >= b.start.getTime() - LATE_NOTICE_OPENS_MINUTES * MINUTE_MS && at < releaseFrom(b).getTime();
}

/** The store may release the table: confirmed, nobody arrived, the grace period over and time left in the stay. */
export function releasable(b: Due & { end: Date }, now: Date): boolean {
  const at = now.getTime();
  return b.status === 'confirmed' && b.attendance === null && at >= releaseFrom(b).getTime() && at < b.end.getTime();
}
