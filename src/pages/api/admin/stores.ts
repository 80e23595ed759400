import { json, readJson } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { adminScope } from '#src/server/admin/access.ts';
import { createStore } from '#src/server/admin/stores.ts';
import { adminStoreSchema } from '#src/lib/contract/admin.ts';

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
