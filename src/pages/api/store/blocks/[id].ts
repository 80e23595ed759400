import { idParam } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { releaseBlock } from '#src/server/staff/blocks.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';

/** Gives the blocked table back: 204 (again 204 when it was released already); another store's block is 404. */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  await withinStaffLimits(db, scope, () => releaseBlock(db, scope, id));
  return new Response(null, { status: 204 });
});
