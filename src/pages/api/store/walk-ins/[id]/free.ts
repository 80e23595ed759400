import { idParam, json } from '../../../../../server/http/api';
import { storeApi } from '../../../../../server/staff/http';
import { getDb } from '../../../../../server/db/startup';
import { staffScope } from '../../../../../server/staff/access';
import { freeWalkIn } from '../../../../../server/staff/walkIns';
import { withinStaffLimits } from '../../../../../server/staff/limits';

/** "Table free again": the walk-in ends now and its table is bookable at once (again: harmless); another store's is 404. */
export const POST = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await withinStaffLimits(db, scope, () => freeWalkIn(db, scope, id)));
});
