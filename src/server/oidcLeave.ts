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
import type { AstroCookies } from 'astro';
import type { Db } from './db/types';
import { oidcIdentities } from './db/schema';
import { deleteAccount, leave, leaveApiSchema, leaveSchema, type LeaveResult } from './account';
import { configuredProviders, countOidcStep, OidcRefusal, PROVIDER_NAMES, startSignIn, type Redeemed } from './oidc';
import { signInWays } from './oidcLinks';
import { ApiError, validate } from './http/api';
import type { T } from '../i18n';

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

/**
 * DELETE /api/me. With a password: checked, and the account deleted. Without one, nothing is
 * deleted here: the leave is started at a linked provider (the one named, else the first linked)
 * and refused with 403 `reauth_required`, its `reauth_url` the provider's fresh sign-in. The state
 * cookie is set on this answer, so only the browser that asked (signed in as this diner) can
 * finish it at the callback, as with the leave page; a client without the browser's cookies sends
 * the diner to the leave page instead.
 */
export async function leaveFromApi(
  db: Db,
  t: T,
  cookies: AstroCookies,
  locals: { secure: boolean; clientAddress: string },
  userId: number,
  body: unknown,
): Promise<LeaveResult> {
  const ways = await signInWays(db, userId);
  if (ways.hasPassword) {
    // The password leave's own schema, so every missing field (password, confirm) is named at once, as the page names them.
    const { password } = validate(t, leaveSchema, body);
    return leave(db, t, userId, password);
  }
  const input = validate(t, leaveApiSchema, body);
  const providers = ways.linked.map((l) => l.provider).filter((p) => configuredProviders().includes(p));
  if (input.provider !== undefined && !providers.includes(input.provider)) {
    throw new ApiError(400, 'bad_request', 'account.signInWays.notLinked', { fields: { provider: t('account.signInWays.notLinked') } });
  }
  const provider = input.provider ?? providers[0];
  // No password and no provider this server can ask: no proof is possible until a password is set.
  if (!provider) throw new ApiError(403, 'reauth_required', 'account.leave.noWay');
  await countOidcStep(db, locals.clientAddress);
  const url = await startSignIn(db, cookies, locals, provider, '/home', { kind: 'leave', userId });
  throw new ApiError(403, 'reauth_required', 'account.leave.continueLead', {
    params: { provider: PROVIDER_NAMES[provider] },
    extra: { reauth_url: url.href, provider },
  });
}
