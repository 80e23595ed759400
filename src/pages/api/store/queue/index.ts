import { json, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { listStoreQueue } from '#src/server/queue/staff.ts';
import { storeQuerySchema } from '#src/lib/contract/staff.ts';

/** The store's 順番待ち: the parties waiting or called, first come first, with the store's claim window. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await listStoreQueue(db, scope, readQuery(url, locals.t, storeQuerySchema).store_id));
});
