import { json, readJson, readQuery, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { addTable, listTables } from '../../../../server/staff/tables';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { storeQuerySchema, tableCreateSchema } from '../../../../lib/contract/staff';

/** The tables of one of the staff's stores. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const { store_id } = readQuery(url, locals.t, storeQuerySchema);
  return json(await listTables(db, storeOf(scope, store_id)));
});

/** Adds a table to one of the staff's stores. */
export const POST = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, tableCreateSchema);
  return json(await withinStaffLimits(db, scope, () => addTable(db, translate(locals.t), scope, input)), { status: 201 });
});
