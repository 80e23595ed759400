/**
 * Who may use the store API, and for which stores. A staff account belongs to one company (tenant)
 * and works for one or several of its stores (staff_stores). Every store call goes through
 * `staffScope` then `storeOf`: a guest gets 401, a diner 403, and a store outside the account's
 * list is indistinguishable from one that does not exist (404).
 */
import { asc, eq } from 'drizzle-orm';
import type { Q } from '../db/types';
import { staffStores, tenants, users } from '../db/schema';
import { ApiError, notFound, unauthorized } from '../http/api';
import type { SessionUser } from '../sessions';

export interface StaffScope {
  userId: number;
  email: string;
  /** The company's slug, as the store host keeps it in its auth state. */
  tenant: string;
  /** The stores this account works for, lowest id first; the first is its default store. */
  storeIds: number[];
}

/** The staff facts of an account, or null for a diner (or a staff account linked to no store). */
export async function staffOf(q: Q, userId: number): Promise<StaffScope | null> {
  const rows = await q
    .select({ email: users.email, tenant: tenants.slug, storeId: staffStores.storeId })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .innerJoin(staffStores, eq(staffStores.userId, users.id))
    .where(eq(users.id, userId))
    .orderBy(asc(staffStores.storeId));
  const first = rows[0];
  if (!first) return null;
  return { userId, email: first.email, tenant: first.tenant, storeIds: rows.map((r) => r.storeId) };
}

/** The caller's staff scope: 401 when signed out, 403 for a diner's account. */
export async function staffScope(q: Q, user: SessionUser | null): Promise<StaffScope> {
  if (!user) throw unauthorized();
  const scope = user.role === 'staff' ? await staffOf(q, user.id) : null;
  if (!scope) throw new ApiError(403, 'forbidden', 'api.error.staffOnly');
  return scope;
}

/**
 * The store a call is about: the one asked for when the account works there, else 404; the
 * account's first store when none is named.
 */
export function storeOf(scope: StaffScope, storeId: number | undefined): number {
  if (storeId === undefined) return scope.storeIds[0]!;
  if (!scope.storeIds.includes(storeId)) throw notFound();
  return storeId;
}
