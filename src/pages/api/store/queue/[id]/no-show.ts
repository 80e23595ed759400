import { idParam, json } from '../../../../../server/http/api';
import { storeApi } from '../../../../../server/staff/http';
import { getDb } from '../../../../../server/db/startup';
import { staffScope } from '../../../../../server/staff/access';
import { withinStaffLimits } from '../../../../../server/staff/limits';
import { actOnEntry } from '../../../../../server/queue/staff';

/** One move of a party in the store's queue (src/lib/contract/queue.ts); a move its state does not allow is 409 `queue_state`. */
export const POST = storeApi(async ({ locals, params }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const id = idParam(params.id);
  return json(await withinStaffLimits(db, scope, () => actOnEntry(db, scope, id, 'no-show')));
});
