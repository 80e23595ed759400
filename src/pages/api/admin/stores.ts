import { json, readJson } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { adminScope } from '../../../server/admin/access';
import { createStore } from '../../../server/admin/stores';
import { adminStoreSchema } from '../../../lib/contract/admin';

/**
 * The platform's admin opens a company: its first store and its owner's invitation (mailed), all
 * or nothing. 401 signed out, 403 for any account but an admin's.
 */
export const POST = storeApi(async ({ locals, request }) => {
  const admin = adminScope(locals.user);
  const input = await readJson(request, locals.t, adminStoreSchema);
  const made = await createStore(await getDb(), locals.t, admin, input, locals.locale);
  return json(made, { status: 201 });
});
