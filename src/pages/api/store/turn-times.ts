import { json, readJson } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { staffScope } from '../../../server/staff/access';
import { setTurnTimes } from '../../../server/staff/tables';
import { withinStaffLimits } from '../../../server/staff/limits';
import { turnTimesSchema } from '../../../lib/contract/staff';

/** Replaces the default stay and the turn times per party size; answers the tables and turn times. */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, turnTimesSchema);
  return json(await withinStaffLimits(db, scope, () => setTurnTimes(db, scope, input)));
});
