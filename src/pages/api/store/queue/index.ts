import { json, readQuery } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { listStoreQueue } from '../../../../server/queue/staff';
import { storeQuerySchema } from '../../../../lib/contract/staff';

/** The store's 順番待ち: the parties waiting or called, first come first, with the store's claim window. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await listStoreQueue(db, scope, readQuery(url, locals.t, storeQuerySchema).store_id));
});
