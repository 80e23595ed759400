import { idParam, json, readJson } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { markBooking, undoMark } from '#src/server/staff/marks.ts';
import { changeFromStore } from '#src/server/staff/bookings.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { bookingContext } from '#src/server/bookings/http.ts';
import { storeBookingPatchSchema } from '#src/lib/contract/staff.ts';

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
