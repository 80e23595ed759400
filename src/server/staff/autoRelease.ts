/**
 * The automatic release, for stores that enabled it: a party not arrived when the store's grace
 * period ends has its table released as staff would release it from the ledger (the no-show mark,
 * src/server/staff/marks.ts: the rest of the stay free for others, an audit line, the ledgers and
 * listings told) — only while time remains in its stay. Every instance runs it; the booking's row
 * lock and "not marked yet" make one of them do each release.
 */
import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { bookings, stores } from '../db/schema';
import { ApiError } from '../http/api';
import { markBooking } from './marks';
import { clock } from '../clock';

/** The audit's name for the release nobody tapped. */
export const AUTO_RELEASE_ACTOR = 'auto-release';

/** Releases the overdue bookings of the stores that asked for it; the number released. */
export async function releaseOverdue(db: Db, now = clock.now()): Promise<number> {
  const due = await db
    .select({ id: bookings.id, storeId: bookings.storeId })
    .from(bookings)
    .innerJoin(stores, eq(stores.id, bookings.storeId))
    .where(
      and(
        eq(stores.autoRelease, true),
        eq(bookings.kind, 'booking'),
        eq(bookings.status, 'confirmed'),
        isNull(bookings.attendance),
        lte(sql`${bookings.startsAt} + make_interval(mins => ${stores.graceMinutes})`, now),
        // Only while time remains: a stay over by the next minute has nothing to give back.
        gt(bookings.endsAt, new Date(Math.ceil(now.getTime() / 60_000) * 60_000)),
      ),
    );
  let released = 0;
  for (const b of due) {
    try {
      await markBooking(db, { userId: null, email: AUTO_RELEASE_ACTOR, storeIds: [b.storeId] }, b.id, { mark: 'no_show' }, now, { unmarkedOnly: true });
      released++;
    } catch (e) {
      // Marked meanwhile by staff or another instance: theirs stands.
      if (!(e instanceof ApiError && e.status === 409)) throw e;
    }
  }
  return released;
}
