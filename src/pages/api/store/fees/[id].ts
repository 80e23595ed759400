import { idParam, json, readJson } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { feeDetail, setFeeState } from '#src/server/staff/fees.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { feeStateSchema } from '#src/lib/contract/staff.ts';

/** One booking's fee (null when it owes none) and its history. */
export const GET = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await feeDetail(db, scope, id));
});

/** Waive the fee, mark it collected outside Sugu, or put it back to due, with an optional note. */
export const PATCH = storeApi(async ({ locals, params, request }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, feeStateSchema);
  return json(await withinStaffLimits(db, scope, () => setFeeState(db, scope, id, input)));
});
