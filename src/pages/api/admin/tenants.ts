import { json } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { adminScope } from '../../../server/admin/access';
import { tenantOverview } from '../../../server/admin/tenants';

/** Every company, newest first, with its stores and pending invitations. 401 signed out, 403 for any account but an admin's. */
export const GET = storeApi(async ({ locals }) => {
  adminScope(locals.user);
  return json({ items: await tenantOverview(await getDb()) });
});
