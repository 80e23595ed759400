import { idParam } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { ownerRevoke } from '../../../../server/staff/invitations';

/**
 * The owner withdraws a pending invitation: its link then signs no one up. 204; 403 for staff that
 * are not the owner; 404 for another company's invitation or one no longer pending.
 */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  await withinStaffLimits(db, scope, () => ownerRevoke(db, scope, id));
  return new Response(null, { status: 204 });
});
