import { idParam, json, readJson } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { feeDetail, setFeeState } from '../../../../server/staff/fees';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { feeStateSchema } from '../../../../lib/contract/staff';

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
