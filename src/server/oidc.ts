/**
 * Sign-in with OpenID Connect providers (LINEでログイン, Google): the authorisation code flow with
 * PKCE, `state` and `nonce`, through openid-client, which verifies the ID token against the
 * provider's published keys. The redirect URI is always PUBLIC_ORIGIN's (never the request's Host)
 * and is the one registered at the provider.
 *
 * Which account a provider account signs in to:
 * - already linked: that one (a signed-in diner whose account is another one is refused);
 * - a signed-in diner: linked to their account (being signed in proves it is theirs);
 * - a verified address that is an existing account's: nothing yet — the diner must sign in to that
 *   account with its password first, then the two are linked (a provider's word that an address is
 *   verified proves nothing to us about who holds the Sugu account);
 * - a verified address that is no account's: a new account with that address, verified;
 * - no verified address: a new account without one (src/server/placeholderEmail.ts).
 *
 * One module: the flow's steps (start, redeem, finish, complete a link) hand each other the state
 * cookie and the transaction row, and are checked by reading them in order.
 */
import * as client from 'openid-client';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { AstroCookies } from 'astro';
import type { Db } from './db/types';
import { oidcIdentities, oidcPendingLinks, oidcTransactions, users } from './db/schema';
import { config, publicOrigin } from './config';
import { cookieOptions } from './http/cookies';
import { createSession, hashToken, newToken } from './sessions';
import { findUserByEmail, pgCode } from './auth';
import { setFlash } from './http/flash';
import { placeholderEmail } from './placeholderEmail';
import { addressKey, consume, LIMITS } from './http/rateLimit';
import { ACCOUNT_NAME_MAX, EMAIL_MAX, TOKEN_MAX } from '../lib/contract/limits';
import { authPaths, OIDC_PROVIDERS, type OidcProvider } from '../lib/contract/paths';
import type { MessageKey, T } from '../i18n';
import { log } from './log';

/** The browser's half of a sign-in under way: its `state`, for ten minutes. */
export const OIDC_STATE_COOKIE = 'sugu_oidc';
/** A link waiting for the diner to sign in to the account with the provider's address. */
export const OIDC_LINK_COOKIE = 'sugu_oidc_link';
const TRANSACTION_TTL_MS = 10 * 60_000;
const PENDING_LINK_TTL_MS = 30 * 60_000;

/** The provider's name as the sign-in button and messages show it (a brand, the same in every language). */
export const PROVIDER_NAMES: Record<OidcProvider, string> = { line: 'LINE', google: 'Google' };

/** A sign-in the callback refuses: the page says why, in the diner's language. */
export class OidcRefusal extends Error {
  constructor(
    readonly status: 400 | 409,
    readonly messageKey: MessageKey,
  ) {
    super(messageKey);
  }
}

function settings(provider: OidcProvider) {
  const c = config();
  const [issuer, clientId, secret] =
    provider === 'line'
      ? [c.OIDC_LINE_ISSUER, c.OIDC_LINE_CLIENT_ID, c.OIDC_LINE_CLIENT_SECRET]
      : [c.OIDC_GOOGLE_ISSUER, c.OIDC_GOOGLE_CLIENT_ID, c.OIDC_GOOGLE_CLIENT_SECRET];
  return issuer && clientId && secret ? { issuer, clientId, secret } : null;
}

/** The providers configured (all three settings), in the order the sign-in page shows them. */
export function configuredProviders(): OidcProvider[] {
  return OIDC_PROVIDERS.filter((p) => settings(p) !== null);
}

export function isOidcProvider(value: unknown): value is OidcProvider {
  return typeof value === 'string' && (OIDC_PROVIDERS as readonly string[]).includes(value);
}

/** The exact redirect URI registered at the provider. */
export function redirectUri(provider: OidcProvider): string {
  return publicOrigin() + authPaths.oidcCallback(provider);
}

const discovered = new Map<OidcProvider, Promise<client.Configuration>>();

/** The provider's metadata, found once per process (a failed discovery is tried again next time). */
function providerConfig(provider: OidcProvider): Promise<client.Configuration> {
  let found = discovered.get(provider);
  if (!found) {
    const s = settings(provider);
    if (!s) throw new OidcRefusal(400, 'auth.oidc.failed');
    const issuer = new URL(s.issuer);
    // Without it the ID token from the token endpoint is trusted for arriving over TLS; with it its
    // signature is checked against the provider's published keys as well.
    const execute = [client.enableNonRepudiationChecks];
    // Configuration allows http only for a provider on this machine (src/server/config.ts).
    if (issuer.protocol === 'http:') execute.push(client.allowInsecureRequests);
    found = client.discovery(issuer, s.clientId, { client_secret: s.secret }, client.ClientSecretPost(s.secret), { execute });
    found.catch(() => discovered.delete(provider));
    discovered.set(provider, found);
  }
  return found;
}

/**
 * Counts one step of a provider sign-in (its start or its callback) from this client address
 * group; past LIMITS.oidcPerIp, an ApiError 429 with Retry-After (shown by oidcLimitedPage).
 */
export async function countOidcStep(db: Db, clientAddress: string): Promise<void> {
  await consume(db, [{ key: addressKey('oidc-ip', clientAddress), limit: LIMITS.oidcPerIp }]);
}

/** What a sign-in at the provider is for: signing in (or linking), or confirming a leave. */
export type OidcPurpose = { kind: 'signin' } | { kind: 'leave'; userId: number };

/**
 * Starts a sign-in: a fresh state, nonce and PKCE verifier, kept on the server (the state also in
 * the browser's cookie), and the provider's authorisation URL to send the browser to. For a leave,
 * the provider is asked to sign the diner in afresh (prompt=login, max_age=0), whatever session
 * it already has, and to say when (auth_time).
 */
export async function startSignIn(
  db: Db,
  cookies: AstroCookies,
  locals: { secure: boolean },
  provider: OidcProvider,
  next: string,
  purpose: OidcPurpose = { kind: 'signin' },
): Promise<URL> {
  const cfg = await providerConfig(provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const now = Date.now();
  await db.delete(oidcTransactions).where(sql`${oidcTransactions.expiresAt} < ${new Date(now)}`);
  await db.insert(oidcTransactions).values({
    stateHash: hashToken(state),
    provider,
    nonce,
    codeVerifier,
    next,
    purpose: purpose.kind,
    userId: purpose.kind === 'leave' ? purpose.userId : null,
    createdAt: new Date(now),
    expiresAt: new Date(now + TRANSACTION_TTL_MS),
  });
  cookies.set(OIDC_STATE_COOKIE, state, cookieOptions(locals, { maxAge: TRANSACTION_TTL_MS / 1000 }));
  return client.buildAuthorizationUrl(cfg, {
    redirect_uri: redirectUri(provider),
    scope: 'openid profile email',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...(purpose.kind === 'leave' ? { prompt: 'login', max_age: '0' } : {}),
  });
}

export type SignInOutcome =
  | { kind: 'signedIn'; userId: number; token: string; expiresAt: Date; next: string; linked: boolean }
  | { kind: 'linked'; next: string }
  | { kind: 'linkPending'; email: string; next: string };

/** A callback whose state and code passed: what it was started for, and the ID token's claims. */
export interface Redeemed {
  provider: OidcProvider;
  tx: typeof oidcTransactions.$inferSelect;
  claims: client.IDToken;
}

/**
 * The provider sent the browser back: checks the state against the browser's cookie and spends it,
 * and redeems the code (PKCE verifier, nonce and the ID token's signature checked by openid-client).
 * Refusals are OidcRefusal; no token is ever logged.
 */
export async function redeem(db: Db, cookies: AstroCookies, locals: { secure: boolean }, provider: OidcProvider, callbackUrl: URL): Promise<Redeemed> {
  const state = callbackUrl.searchParams.get('state');
  const cookieState = cookies.get(OIDC_STATE_COOKIE)?.value;
  cookies.delete(OIDC_STATE_COOKIE, cookieOptions(locals));
  // The state must be the one this browser started with: another browser's callback (a link someone
  // was sent to sign them in to the sender's account) ends here.
  if (!state || !cookieState || state !== cookieState || state.length > TOKEN_MAX) throw new OidcRefusal(400, 'auth.oidc.state');
  const [tx] = await db
    .delete(oidcTransactions)
    .where(and(eq(oidcTransactions.stateHash, hashToken(state)), eq(oidcTransactions.provider, provider), gt(oidcTransactions.expiresAt, new Date())))
    .returning();
  if (!tx) throw new OidcRefusal(400, 'auth.oidc.state');
  const cfg = await providerConfig(provider);
  // Checked against the registered address, whatever Host the request came with.
  const current = new URL(authPaths.oidcCallback(provider) + callbackUrl.search, publicOrigin());
  let claims: client.IDToken;
  try {
    const tokens = await client.authorizationCodeGrant(cfg, current, {
      pkceCodeVerifier: tx.codeVerifier,
      expectedState: state,
      expectedNonce: tx.nonce,
      idTokenExpected: true,
      // A leave asked for a fresh sign-in: the ID token must say when it happened (auth_time), and recently.
      ...(tx.purpose === 'leave' ? { maxAge: 0 } : {}),
    });
    claims = tokens.claims()!;
  } catch (error) {
    // The error's name and code only: its message or cause may quote the provider's answer.
    const e = error as { name?: string; code?: string; error?: string };
    log('warn', 'oidc_refused', { provider, error: e?.name, code: e?.code ?? e?.error });
    throw new OidcRefusal(400, 'auth.oidc.failed');
  }
  return { provider, tx, claims };
}

/** A redeemed sign-in: decides the account (see the top of this file). */
export async function finishSignIn(
  db: Db,
  cookies: AstroCookies,
  locals: { secure: boolean; user?: { id: number } | null },
  { provider, tx, claims }: Redeemed,
  userAgent: string | null,
): Promise<SignInOutcome> {
  if (tx.purpose !== 'signin') throw new OidcRefusal(400, 'auth.oidc.state');
  const subject = String(claims.sub);
  const email = typeof claims.email === 'string' && claims.email.length <= EMAIL_MAX && claims.email.includes('@') ? claims.email.toLowerCase() : null;
  const verifiedEmail = email && claims.email_verified === true ? email : null;
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, ACCOUNT_NAME_MAX) : PROVIDER_NAMES[provider];
  const next = tx.next;

  const [identity] = await db
    .select({ userId: oidcIdentities.userId })
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.provider, provider), eq(oidcIdentities.subject, subject)));
  const signedInAs = locals.user?.id ?? null;
  if (identity) {
    if (signedInAs !== null && signedInAs !== identity.userId) throw new OidcRefusal(409, 'auth.oidc.linkedElsewhere');
    if (signedInAs !== null) return { kind: 'linked', next };
    return { kind: 'signedIn', ...(await createSession(db, identity.userId, userAgent)), userId: identity.userId, next, linked: false };
  }
  if (signedInAs !== null) {
    await link(db, provider, subject, signedInAs, email);
    return { kind: 'linked', next };
  }
  if (verifiedEmail && (await findUserByEmail(db, verifiedEmail))) {
    const token = newToken();
    await db
      .insert(oidcPendingLinks)
      .values({ tokenHash: hashToken(token), provider, subject, email: verifiedEmail, expiresAt: new Date(Date.now() + PENDING_LINK_TTL_MS) });
    cookies.set(OIDC_LINK_COOKIE, token, cookieOptions(locals, { maxAge: PENDING_LINK_TTL_MS / 1000 }));
    return { kind: 'linkPending', email: verifiedEmail, next };
  }
  const userId = await createAccount(db, provider, subject, name, verifiedEmail);
  return { kind: 'signedIn', ...(await createSession(db, userId, userAgent)), userId, next, linked: false };
}

async function link(db: Db, provider: OidcProvider, subject: string, userId: number, email: string | null): Promise<void> {
  try {
    await db.insert(oidcIdentities).values({ provider, subject, userId, email });
  } catch (error) {
    // Linked to another account in the meantime: the unique index decides.
    if (pgCode(error) === '23505') throw new OidcRefusal(409, 'auth.oidc.linkedElsewhere');
    throw error;
  }
}

/**
 * A new account for a provider account, linked to it, in one transaction. It has no password (it
 * signs in through its provider) until its diner sets one with a reset link to a verified address.
 */
async function createAccount(db: Db, provider: OidcProvider, subject: string, name: string, verifiedEmail: string | null): Promise<number> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ email: verifiedEmail ?? placeholderEmail(provider), name, passwordHash: null, emailVerifiedAt: verifiedEmail ? new Date() : null })
        .returning({ id: users.id });
      await tx.insert(oidcIdentities).values({ provider, subject, userId: row!.id, email: verifiedEmail });
      return row!.id;
    });
  } catch (error) {
    // The same provider account (or address) signing up twice at once: the second is asked to try again.
    if (pgCode(error) === '23505') throw new OidcRefusal(409, 'auth.oidc.retry');
    throw error;
  }
}

/**
 * After a password sign-in: links the provider account waiting in this browser's cookie, when its
 * verified address is the signed-in account's. The cookie goes either way. True when linked.
 */
export async function completePendingLink(db: Db, cookies: AstroCookies, locals: { secure: boolean }, t: T, userId: number): Promise<boolean> {
  const token = cookies.get(OIDC_LINK_COOKIE)?.value;
  if (!token) return false;
  cookies.delete(OIDC_LINK_COOKIE, cookieOptions(locals));
  const [pending] = await db
    .delete(oidcPendingLinks)
    .where(and(eq(oidcPendingLinks.tokenHash, hashToken(token.slice(0, TOKEN_MAX))), gt(oidcPendingLinks.expiresAt, new Date())))
    .returning();
  if (!pending || !isOidcProvider(pending.provider)) return false;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user || user.email.toLowerCase() !== pending.email) return false;
  const provider = PROVIDER_NAMES[pending.provider];
  try {
    await link(db, pending.provider, pending.subject, userId, pending.email);
  } catch (error) {
    if (!(error instanceof OidcRefusal)) throw error;
    setFlash(cookies, locals, { kind: 'error', message: t('auth.oidc.linkedElsewhere', { provider }) });
    return false;
  }
  setFlash(cookies, locals, { kind: 'success', message: t('auth.oidc.linkedNow', { provider }) });
  return true;
}
