/**
 * Staff writes are limited per account, as diners' bookings are: a stolen token or a runaway
 * script can only do so much before 429 (the counters are shared by every instance). Refused
 * attempts count too, so probing is bounded as well.
 */
import type { Db } from '../db/types';
import { consume, limitKey, type Limit } from '../http/rateLimit';
import type { StaffScope } from './access';

/** Store changes per staff account; a busy evening at the door is a few hundred. */
export const STAFF_WRITES: Limit = { max: 600, windowMs: 60 * 60_000 };

/** Runs a store change within the account's limit. */
export async function withinStaffLimits<T>(db: Db, scope: Pick<StaffScope, 'userId'>, change: () => Promise<T>): Promise<T> {
  await consume(db, [{ key: limitKey('staff-write', String(scope.userId)), limit: STAFF_WRITES }]);
  return change();
}
