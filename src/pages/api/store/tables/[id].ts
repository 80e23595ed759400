import { idParam, json, readJson, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { removeTable, setTable } from '../../../../server/staff/tables';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { tableSettingsSchema } from '../../../../lib/contract/staff';

/** Changes the table's label, kind, party range or online flag; another store's table is 404. */
export const PATCH = storeApi(async ({ locals, params, request }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, tableSettingsSchema);
  return json(await withinStaffLimits(db, scope, () => setTable(db, translate(locals.t), scope, id, input)));
});

/** Removes a table nothing was ever booked at (409 `table_in_use` otherwise); another store's table is 404. */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  await withinStaffLimits(db, scope, () => removeTable(db, scope, id));
  return new Response(null, { status: 204 });
});
