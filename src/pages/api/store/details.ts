import { json, readJson, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { detailsTranslator, getStoreDetails, setStoreDetails } from '#src/server/staff/profile.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { storeDetailsSchema, storeQuerySchema } from '#src/lib/contract/staff.ts';

/** The store's details as diners see them, with its cancellation-fee policy. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await getStoreDetails(db, storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id)));
});

/** Replaces the details diners see; audited with the fields that changed. */
export const PUT = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, detailsTranslator(locals.t), storeDetailsSchema);
  return json(await withinStaffLimits(db, scope, () => setStoreDetails(db, scope, input)));
});
