import { json, readJson, readQuery } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { staffScope, storeOf } from '../../../server/staff/access';
import { detailsTranslator, getStoreDetails, setStoreDetails } from '../../../server/staff/profile';
import { withinStaffLimits } from '../../../server/staff/limits';
import { storeDetailsSchema, storeQuerySchema } from '../../../lib/contract/staff';

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
