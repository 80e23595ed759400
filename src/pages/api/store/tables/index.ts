import { json, readJson, readQuery, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { addTable, listTables } from '#src/server/staff/tables.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { storeQuerySchema, tableCreateSchema } from '#src/lib/contract/staff.ts';

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
