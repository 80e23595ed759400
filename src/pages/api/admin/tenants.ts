import { json, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { adminScope } from '#src/server/admin/access.ts';
import { tenantOverview } from '#src/server/admin/tenants.ts';
import { adminTenantQuerySchema } from '#src/lib/contract/admin.ts';

/** One page of the companies, newest first, with their stores and pending invitations. 401 signed out, 403 for any account but an admin's. */
export const GET = storeApi(async ({ locals, url }) => {
  adminScope(locals.user);
  const query = readQuery(url, locals.t, adminTenantQuerySchema);
  return json(await tenantOverview(await getDb(), { page: query.page, perPage: query.per_page }));
});
