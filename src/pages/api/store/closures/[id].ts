import { idParam, json } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { removeClosure } from '#src/server/staff/closures.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';

/** Gives the day back its weekly hours; lists the bookings then outside them. Another store's day is 404. */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await withinStaffLimits(db, scope, () => removeClosure(db, scope, id)));
});
