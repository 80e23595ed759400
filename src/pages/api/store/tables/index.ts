import { json, readQuery } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { listTables } from '../../../../server/staff/tables';
import { storeQuerySchema } from '../../../../lib/contract/store';

/** The tables of one of the staff's stores. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const { store_id } = readQuery(url, locals.t, storeQuerySchema);
  return json(await listTables(db, storeOf(scope, store_id)));
});
