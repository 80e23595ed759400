import { idParam } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { releaseBlock } from '../../../../server/staff/blocks';
import { withinStaffLimits } from '../../../../server/staff/limits';

/** Gives the blocked table back: 204 (again 204 when it was released already); another store's block is 404. */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  await withinStaffLimits(db, scope, () => releaseBlock(db, scope, id));
  return new Response(null, { status: 204 });
});
