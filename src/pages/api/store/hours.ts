import { json, readJson, readQuery } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { staffScope, storeOf } from '../../../server/staff/access';
import { getHours, setHours } from '../../../server/staff/hours';
import { withinStaffLimits } from '../../../server/staff/limits';
import { hoursSchema, storeQuerySchema } from '../../../lib/contract/staff';

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
