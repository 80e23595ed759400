import { idParam } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { adminScope } from '../../../../server/admin/access';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { revokeInvitation } from '../../../../server/staff/invitations';

/**
 * The admin withdraws any company's pending invitation: 204; 404 for one unknown or no longer
 * pending; 401 signed out, 403 for any account but an admin's.
 */
export const DELETE = storeApi(async ({ locals, params }) => {
  const admin = adminScope(locals.user);
  const id = idParam(params.id);
  const db = await getDb();
  await withinStaffLimits(db, admin, () => revokeInvitation(db, admin, id, null));
  return new Response(null, { status: 204 });
});
