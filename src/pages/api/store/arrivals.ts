import { json, readJson, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { getArrivals, setArrivals } from '#src/server/staff/profile.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { storeArrivalsSchema, storeQuerySchema } from '#src/lib/contract/staff.ts';

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
