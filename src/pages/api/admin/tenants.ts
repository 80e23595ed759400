import { json, readQuery } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { adminScope } from '../../../server/admin/access';
import { tenantOverview } from '../../../server/admin/tenants';
import { adminTenantQuerySchema } from '../../../lib/contract/admin';

/** One page of the companies, newest first, with their stores and pending invitations. 401 signed out, 403 for any account but an admin's. */
export const GET = storeApi(async ({ locals, url }) => {
  adminScope(locals.user);
  const query = readQuery(url, locals.t, adminTenantQuerySchema);
  return json(await tenantOverview(await getDb(), { page: query.page, perPage: query.per_page }));
});
