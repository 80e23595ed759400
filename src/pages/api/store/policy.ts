import { json, readJson, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { getPolicy, setPolicy } from '#src/server/staff/profile.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { storePolicySchema, storeQuerySchema } from '#src/lib/contract/staff.ts';

/** The cancellation-fee policy the fee rule reads, and the store's wording of it. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await getPolicy(db, storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id)));
});

/** Replaces the policy (free hours 0–168, fee per person, wording); audited before and after. */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, storePolicySchema);
  return json(await withinStaffLimits(db, scope, () => setPolicy(db, scope, input)));
});
