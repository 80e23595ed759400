import { idParam, json, readJson } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { markBooking, undoMark } from '../../../../server/staff/marks';
import { changeFromStore } from '../../../../server/staff/bookings';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { bookingContext } from '../../../../server/bookings/http';
import { storeBookingPatchSchema } from '../../../../lib/contract/staff';

/**
 * Marks a booking arrived or no-show, or cancels it for the store with a reason (mailed to the
 * diner); `mark: null` undoes the last mark within 10 minutes; or changes its start, party, table
 * or note (the diner is mailed the change).
 */
export const PATCH = storeApi(async ({ locals, params, request }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const { mark, reason, ...change } = await readJson(request, locals.t, storeBookingPatchSchema);
  return json(
    await withinStaffLimits(db, scope, () => {
      if (mark === null) return undoMark(db, scope, id);
      if (mark !== undefined) return markBooking(db, scope, id, { mark, reason });
      return changeFromStore(db, bookingContext(locals), scope, id, change);
    }),
  );
});
