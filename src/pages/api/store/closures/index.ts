import { json, readJson, readQuery, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { listClosures, setClosure } from '../../../../server/staff/closures';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { closureSchema, storeQuerySchema } from '../../../../lib/contract/staff';

/** The store's one-off days (臨時休業, changed hours) from today on. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const storeId = storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id);
  return json({ store_id: storeId, items: await listClosures(db, storeId) });
});

/** Closes a day or changes its hours; the answer lists the bookings now outside the hours (never cancelled). */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, closureSchema);
  return json(await withinStaffLimits(db, scope, () => setClosure(db, translate(locals.t), scope, input)));
});
