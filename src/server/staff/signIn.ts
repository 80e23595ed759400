/** A staff account signing in: its stores for the login answer, and a line in the audit trail. */
import type { Db } from '../db/types';
import { staffOf, type StaffScope } from './access';
import { audit } from './audit';

/** The staff scope of an account that just signed in (recorded), or null for a diner. */
export async function staffSignedIn(db: Db, userId: number): Promise<StaffScope | null> {
  const scope = await staffOf(db, userId);
  if (scope) await audit(db, scope, { action: 'sign_in', storeId: scope.storeIds[0] });
  return scope;
}
