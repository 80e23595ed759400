/**
 * Leaving (退会) for an account without a password, which signs in only through its providers.
 *
 * How it proves it is the diner: a fresh sign-in at one of its linked providers (prompt=login,
 * max_age=0), not a mailed link. Every such account has a linked provider, but not every one has a
 * verified address (a provider may vouch for none); the provider checks its own credentials (and
 * second factor) there and then, so a borrowed or stolen Sugu session alone cannot delete the
 * account; and it reuses the sign-in flow already checked by openid-client (state, PKCE, nonce,
 * signature) with one more check, auth_time, instead of adding another kind of token to mail, store
 * and expire.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from './db/types';
import { oidcIdentities } from './db/schema';
import { deleteAccount, type LeaveResult } from './account';
import { OidcRefusal, type Redeemed } from './oidc';

/** A provider's and Sugu's clocks may differ by this much. */
const CLOCK_SKEW_MS = 30_000;

/**
 * The provider sent back a leave's callback: it deletes the account when the ID token is for a
 * provider account linked to the signed-in diner who started it, and its sign-in (auth_time) is
 * from after the start. Anything else is refused and deletes nothing.
 */
export async function confirmLeave(db: Db, signedIn: { id: number } | null | undefined, { provider, tx, claims }: Redeemed): Promise<LeaveResult> {
  if (tx.purpose !== 'leave' || !signedIn || tx.userId !== signedIn.id) throw new OidcRefusal(400, 'auth.oidc.state');
  const authTime = typeof claims.auth_time === 'number' ? claims.auth_time * 1000 : 0;
  if (authTime < tx.createdAt.getTime() - CLOCK_SKEW_MS) throw new OidcRefusal(400, 'account.leave.reauthFailed');
  const [identity] = await db
    .select({ userId: oidcIdentities.userId })
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.provider, provider), eq(oidcIdentities.subject, String(claims.sub))));
  // Another provider account than the one linked (someone else's LINE at hand): not a proof.
  if (identity?.userId !== signedIn.id) throw new OidcRefusal(400, 'account.leave.reauthFailed');
  return deleteAccount(db, signedIn.id);
}
