import { idParam } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { adminScope } from '#src/server/admin/access.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { revokeInvitation } from '#src/server/staff/invitations.ts';

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
