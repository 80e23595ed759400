/**
 * What the platform's admin sees of the companies it opened: each company with its stores and the
 * invitations still waiting to be taken up, which it may withdraw (the same service as an owner's).
 */
import { asc, desc, inArray } from 'drizzle-orm';
import type { Q } from '../db/types';
import { stores, tenants } from '../db/schema';
import { pendingInvitations } from '../staff/invitations';
import type { AdminTenantJson } from '../../lib/contract/admin';

/** Every company, newest first, with its stores (lowest id first) and its pending invitations. */
export async function tenantOverview(q: Q): Promise<AdminTenantJson[]> {
  const companies = await q.select({ id: tenants.id, slug: tenants.slug, name: tenants.name, createdAt: tenants.createdAt }).from(tenants).orderBy(desc(tenants.createdAt), desc(tenants.id));
  const ids = companies.map((c) => c.id);
  const storeRows = ids.length ? await q.select({ id: stores.id, name: stores.name, tenantId: stores.tenantId }).from(stores).where(inArray(stores.tenantId, ids)).orderBy(asc(stores.id)) : [];
  const invites = await pendingInvitations(q, ids);
  return companies.map((c) => ({
    tenant: c.slug,
    name: c.name,
    created_at: c.createdAt.toISOString(),
    stores: storeRows.filter((s) => s.tenantId === c.id).map((s) => ({ id: s.id, name: s.name })),
    invitations: invites.get(c.id) ?? [],
  }));
}
