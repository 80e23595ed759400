/** A staff account signing in: its stores for the login answer, and a line in the audit trail. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/types';
import { users } from '../db/schema';
import type { AdminScope } from '../admin/access';
import { staffOf, type StaffScope } from './access';
import { audit } from './audit';

/** The staff scope of an account that just signed in (recorded), or null for a diner. */
export async function staffSignedIn(db: Db, userId: number): Promise<StaffScope | null> {
  const scope = await staffOf(db, userId);
  if (scope) await audit(db, scope, { action: 'sign_in', storeId: scope.storeIds[0] });
  return scope;
}

/** The platform's own admin account that just signed in (recorded), or null for any other. */
export async function adminSignedIn(db: Db, userId: number): Promise<AdminScope | null> {
  const [row] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'admin')));
  if (!row) return null;
  const admin = { userId, email: row.email };
  await audit(db, admin, { action: 'sign_in' });
  return admin;
}
