/**
 * What the platform's admin sees of the companies it opened: each company with its stores and the
 * invitations still waiting to be taken up, which it may withdraw (the same service as an owner's).
 */
import { asc, count, desc, inArray } from 'drizzle-orm';
import type { Q } from '../db/types';
import { stores, tenants } from '../db/schema';
import { pendingInvitations } from '../staff/invitations';
import { ADMIN_TENANT_PAGE_SIZE, type AdminTenantList } from '../../lib/contract/admin';

/**
 * One page of the companies, newest first, each with its stores (lowest id first) and its pending
 * invitations, and how many companies there are in all. A page past the last is empty.
 */
export async function tenantOverview(q: Q, { page = 1, perPage = ADMIN_TENANT_PAGE_SIZE }: { page?: number; perPage?: number } = {}): Promise<AdminTenantList> {
  const [companies, [counted]] = await Promise.all([
    q
      .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, createdAt: tenants.createdAt })
      .from(tenants)
      .orderBy(desc(tenants.createdAt), desc(tenants.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    q.select({ total: count() }).from(tenants),
  ]);
  const ids = companies.map((c) => c.id);
  const storeRows = ids.length
    ? await q.select({ id: stores.id, name: stores.name, tenantId: stores.tenantId }).from(stores).where(inArray(stores.tenantId, ids)).orderBy(asc(stores.id))
    : [];
  const invites = await pendingInvitations(q, ids);
  return {
    items: companies.map((c) => ({
      tenant: c.slug,
      name: c.name,
      created_at: c.createdAt.toISOString(),
      stores: storeRows.filter((s) => s.tenantId === c.id).map((s) => ({ id: s.id, name: s.name })),
      invitations: invites.get(c.id) ?? [],
    })),
    page,
    per_page: perPage,
    total: counted?.total ?? 0,
  };
}
