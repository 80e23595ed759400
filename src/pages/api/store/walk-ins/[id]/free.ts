import { idParam, json } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { freeWalkIn } from '#src/server/staff/walkIns.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';

/** "Table free again": the walk-in ends now and its table is bookable at once (again: harmless); another store's is 404. */
export const POST = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await withinStaffLimits(db, scope, () => freeWalkIn(db, scope, id)));
});
