import { json, readJson, readQuery, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { listClosures, setClosure } from '#src/server/staff/closures.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { closureSchema, storeQuerySchema } from '#src/lib/contract/staff.ts';

/** The store's one-off days (臨時休業, changed hours) from today on. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const storeId = storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id);
  return json({ store_id: storeId, items: await listClosures(db, storeId) });
});

/** Closes a day or changes its hours; the answer lists the bookings now outside the hours (never cancelled). */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, closureSchema);
  return json(await withinStaffLimits(db, scope, () => setClosure(db, translate(locals.t), scope, input)));
});
