import { api, idParam, json, readJson } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { markBooking } from '../../../../server/staff/marks';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { markSchema } from '../../../../lib/contract/store';

/** Marks a booking arrived or no-show, or cancels it for the store with a reason (mailed to the diner). */
export const PATCH = api(async ({ locals, params, request }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, markSchema);
  return json(await withinStaffLimits(db, scope, () => markBooking(db, scope, id, input)));
});
