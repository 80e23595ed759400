import { ApiError, json, readJson, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { setWeekdayHours } from '#src/server/staff/hours.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { weekdayHoursSchema } from '#src/lib/contract/staff.ts';

/** Replaces one weekday's openings (0 = Sunday … 6 = Saturday), the other days untouched; lists the bookings to come now outside the hours. */
export const PUT = storeApi(async ({ locals, params, request }) => {
  const weekday = /^[0-6]$/.test(params.weekday ?? '') ? Number(params.weekday) : null;
  if (weekday === null)
    throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { weekday: translate(locals.t)('store.validation.weekday') } });
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, weekdayHoursSchema);
  return json(await withinStaffLimits(db, scope, () => setWeekdayHours(db, scope, weekday, input)));
});
