import { idParam, json, readJson, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { removeTable, setTable } from '#src/server/staff/tables.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { tableSettingsSchema } from '#src/lib/contract/staff.ts';

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
