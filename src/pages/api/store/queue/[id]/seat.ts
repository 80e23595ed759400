import { idParam, json } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { actOnEntry } from '#src/server/queue/staff.ts';

/** One move of a party in the store's queue (src/lib/contract/queue.ts); a move its state does not allow is 409 `queue_state`. */
export const POST = storeApi(async ({ locals, params }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const id = idParam(params.id);
  return json(await withinStaffLimits(db, scope, () => actOnEntry(db, scope, id, 'seat')));
});
