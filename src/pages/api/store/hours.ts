import { json, readJson, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { getHours, setHours } from '#src/server/staff/hours.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { hoursSchema, storeQuerySchema } from '#src/lib/contract/staff.ts';

/** The store's weekly hours. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await getHours(db, storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id)));
});

/** Replaces the weekly hours; the answer lists the bookings to come now outside them (never cancelled). */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, hoursSchema);
  return json(await withinStaffLimits(db, scope, () => setHours(db, scope, input)));
});
