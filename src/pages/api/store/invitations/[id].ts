import { idParam } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { ownerRevoke } from '#src/server/staff/invitations.ts';

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
