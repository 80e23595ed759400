import { json, readJson } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { setTurnTimes } from '#src/server/staff/tables.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { turnTimesSchema } from '#src/lib/contract/staff.ts';

/** Replaces the default stay and the turn times per party size; answers the tables and turn times. */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, turnTimesSchema);
  return json(await withinStaffLimits(db, scope, () => setTurnTimes(db, scope, input)));
});
