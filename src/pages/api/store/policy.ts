import { json, readJson, readQuery } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { staffScope, storeOf } from '../../../server/staff/access';
import { getPolicy, setPolicy } from '../../../server/staff/profile';
import { withinStaffLimits } from '../../../server/staff/limits';
import { storePolicySchema, storeQuerySchema } from '../../../lib/contract/staff';

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
