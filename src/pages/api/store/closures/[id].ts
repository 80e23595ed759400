import { idParam, json } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { removeClosure } from '../../../../server/staff/closures';
import { withinStaffLimits } from '../../../../server/staff/limits';

/** Gives the day back its weekly hours; lists the bookings then outside them. Another store's day is 404. */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await withinStaffLimits(db, scope, () => removeClosure(db, scope, id)));
});
