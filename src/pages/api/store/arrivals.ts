import { json, readJson, readQuery } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { staffScope, storeOf } from '../../../server/staff/access';
import { getArrivals, setArrivals } from '../../../server/staff/profile';
import { withinStaffLimits } from '../../../server/staff/limits';
import { storeArrivalsSchema, storeQuerySchema } from '../../../lib/contract/staff';

/** How the store treats a party that has not arrived: the grace period and automatic release. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await getArrivals(db, storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id)));
});

/** Sets both (grace 0–60 minutes after the start; release by itself or by a tap); audited before and after. */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, storeArrivalsSchema);
  return json(await withinStaffLimits(db, scope, () => setArrivals(db, scope, input)));
});
