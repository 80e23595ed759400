import { ApiError, json, readJson, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { setWeekdayHours } from '../../../../server/staff/hours';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { weekdayHoursSchema } from '../../../../lib/contract/staff';

/** Replaces one weekday's openings (0 = Sunday … 6 = Saturday), the other days untouched; lists the bookings to come now outside the hours. */
export const PUT = storeApi(async ({ locals, params, request }) => {
  const weekday = /^[0-6]$/.test(params.weekday ?? '') ? Number(params.weekday) : null;
  if (weekday === null) throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { weekday: translate(locals.t)('store.validation.weekday') } });
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, weekdayHoursSchema);
  return json(await withinStaffLimits(db, scope, () => setWeekdayHours(db, scope, weekday, input)));
});
