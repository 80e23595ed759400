import { idParam, json, readJson } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { setTable } from '../../../../server/staff/tables';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { tableSettingsSchema } from '../../../../lib/contract/store';

/** Makes the table online-bookable or walk-in only; another store's table is 404. */
export const PATCH = storeApi(async ({ locals, params, request }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, tableSettingsSchema);
  return json(await withinStaffLimits(db, scope, () => setTable(db, scope, id, input)));
});
