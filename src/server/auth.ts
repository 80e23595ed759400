/**
 * Accounts: sign-up, sign-in, sign-out and password reset. Sessions are in sessions.ts;
 * profile, password change and leaving are in account.ts.
 *
 * One module: each body schema sits beside the operation that reads it (sign-up, sign-in, reset),
 * and the reset link's rules (its lifetime, one use, the rate limits) are read in one place; the
 * exports are those pairs and the lookups account.ts shares.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from './db/types';
import { passwordResets, users } from './db/schema';
import { ApiError, lineText, safeString } from './http/api';
import { addressKey, assertUnder, clear, consume, hit, LIMITS, limitKey, peek } from './http/rateLimit';
import { addressGroup } from './http/client';
import { normaliseRecipient } from '../lib/contract/recipient';
import { isCommonPassword } from './commonPasswords';
import { normaliseEmail } from '../lib/validation';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { createSession, hashToken, newToken, revokeUserSessions } from './sessions';
import { queueMail } from './mail/outbox';
import { markEmailVerified, sendVerification } from './emailVerification';
import type { T } from '../i18n';
import { ACCOUNT_NAME_MAX, EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, RESET_LINK_MINUTES, TOKEN_MAX } from '../lib/contract/limits';
import { log } from './log';

export const RESET_TTL_MS = RESET_LINK_MINUTES * 60_000;

// ── Schemas (API bodies and forms alike) ─────────────────────────────────────────────

/** Accounts' e-mail: the contract's normaliser (full-width read as ASCII), then lower case. */
export const emailSchema = z.pipe(
  z.pipe(safeString().check(z.overwrite(normaliseEmail), z.minLength(1), z.maxLength(EMAIL_MAX)), z.email()),
  z.transform((v) => v.toLowerCase()),
);

/** NIST-style: length only, no composition rules, and not one of the usual guesses. */
export const newPasswordSchema = safeString().check(
  z.minLength(PASSWORD_MIN),
  z.maxLength(PASSWORD_MAX),
  z.refine((p) => !isCommonPassword(p), { message: 'auth.validation.commonPassword' }),
);

export const nameSchema = lineText().check(z.trim(), z.minLength(1), z.maxLength(ACCOUNT_NAME_MAX));

export const signUpSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  agree: z.boolean().check(z.refine((v) => v, { message: 'auth.validation.agree' })),
});

/** Sign-in checks sizes only: the real check is the password hash. */
export const signInSchema = z.object({
  email: safeString().check(z.trim(), z.minLength(1), z.maxLength(EMAIL_MAX)),
  password: safeString().check(z.minLength(1), z.maxLength(PASSWORD_MAX)),
});

export const forgotSchema = z.object({ email: emailSchema });
export const tokenSchema = safeString().check(z.minLength(1), z.maxLength(TOKEN_MAX));
/** A mailed link's token as a JSON body: `POST /api/password/verify` and `POST /api/watches/confirm`. */
export const linkTokenSchema = z.object({ token: tokenSchema });
export const resetSchema = z.object({ token: tokenSchema, password: newPasswordSchema });

// ── Users ──────────────────────────────────────────────────────────────────────────────

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row ?? null;
}

/** The SQLSTATE behind a Drizzle-wrapped error. */
export function pgCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

export function emailTaken(t: T): ApiError {
  return new ApiError(409, 'email_taken', 'auth.error.emailTaken', { fields: { email: t('auth.error.emailTaken') } });
}

/**
 * Creates an unverified account and mails it the verification link; never signs anyone in.
 * Sign-up must not tell whether an address has an account, and a session cookie would (a new
 * account would be signed in, a taken address not), so both paths end alike: the answer is the same
 * and the only difference is in the mailbox, which only its owner reads. A new account's diner signs
 * in by following the link (or with the password); the owner of an existing account is mailed that
 * someone tried, with the sign-in link. Every attempt from an address group counts against the
 * generous sign-up limit.
 */
export async function signUp(
  db: Db,
  t: T,
  input: z.infer<typeof signUpSchema>,
  client: { ip: string; userAgent?: string | null; origin: string; locale: string },
): Promise<void> {
  await consume(db, [{ key: addressKey('signup-ip', client.ip), limit: LIMITS.signupPerIp }]);
  const existing = await findUserByEmail(db, input.email);
  // Hashed either way, so the answer takes as long whether or not the address is taken.
  const passwordHash = await hashPassword(input.password);
  if (existing) return tellOwnerOfSignUp(db, t, existing.email, client);
  let userId: number;
  try {
    const [row] = await db.insert(users).values({ email: input.email, name: input.name, passwordHash }).returning({ id: users.id });
    userId = row!.id;
  } catch (error) {
    // Two sign-ups for one address at once: the unique index decides, and the loser is told as above.
    if (pgCode(error) === '23505') return tellOwnerOfSignUp(db, t, input.email, client);
    throw error;
  }
  await sendVerification(db, t, { id: userId, email: input.email }, client);
}

async function tellOwnerOfSignUp(db: Db, t: T, to: string, client: { origin: string; locale: string }): Promise<void> {
  await queueMail(db, {
    to,
    subject: t('auth.mail.signupAttempt.subject'),
    text: t('auth.mail.signupAttempt.body', { link: `${client.origin}/auth/signin` }),
    locale: client.locale,
    kind: 'signup_attempt',
  });
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks e-mail and password and starts a new session. Null for any mismatch, with the same work
 * done whether or not the address exists. Failures count per (client address, account) pair: past
 * its limit that pair gets 429 until the window ends, even with the right password, while the
 * owner signing in from anywhere else is not affected. An address failing on many accounts is
 * slowed to one attempt every few seconds rather than refused.
 */
export async function signIn(
  db: Db,
  input: z.infer<typeof signInSchema>,
  client: { ip: string; userAgent?: string | null },
): Promise<{ userId: number; token: string; expiresAt: Date } | null> {
  const pair = { key: limitKey('login-pair', `${addressGroup(client.ip)} ${input.email}`), limit: LIMITS.loginPerPair };
  const ip = { key: addressKey('login-ip', client.ip), limit: LIMITS.loginPerIp };
  await assertUnder(db, [pair]);
  if ((await peek(db, ip.key)).count >= ip.limit.max) await consume(db, [{ key: addressKey('login-slowed', client.ip), limit: LIMITS.loginSlowed }]);
  const user = await findUserByEmail(db, input.email);
  dummyHash ??= hashPassword(newToken());
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
  if (!user || !ok) {
    await hit(db, pair.key, pair.limit);
    await hit(db, ip.key, ip.limit);
    return null;
  }
  await clear(db, pair.key);
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, user.id));
  }
  const session = await createSession(db, user.id, client.userAgent);
  return { userId: user.id, token: session.token, expiresAt: session.expiresAt };
}

// ── Password reset ────────────────────────────────────────────────────────────────────

/**
 * Sends a single-use reset link valid for one hour, if the address has an account. The caller
 * answers the same either way; only the limits (which count every request) can refuse. Whether the
 * address has an account must not show in how long the answer takes either, so the lookup and the
 * mail happen after it (a reset asked for in the very moment the server stops is simply asked again).
 */
export async function requestPasswordReset(db: Db, t: T, email: string, client: { ip: string; origin: string; locale: string }): Promise<void> {
  // Counted per (address group, account), never per account alone: requests from elsewhere must
  // not lock the owner out of their own reset (the per-account ceiling below only stops mails).
  await consume(db, [
    { key: limitKey('reset-pair', `${addressGroup(client.ip)} ${normaliseRecipient(email)}`), limit: LIMITS.resetPerPair },
    { key: addressKey('reset-ip', client.ip), limit: LIMITS.resetPerIp },
  ]);
  void sendResetLink(db, t, email, client.origin, client.locale).catch((error: unknown) =>
    log('error', 'reset_mail_failed', { error: String((error as Error)?.stack ?? error) }),
  );
}

async function sendResetLink(db: Db, t: T, email: string, origin: string, locale: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  // Past the ceiling the answer stays the same and no new mail goes: the links already mailed
  // (each valid for its hour) still work, so whoever asked from many places blocks no one.
  if ((await hit(db, limitKey('reset-account', String(user.id)), LIMITS.resetPerAccount)).count > LIMITS.resetPerAccount.max) {
    log('warn', 'reset_mail_ceiling', { user: user.id });
    return;
  }
  const token = newToken();
  await db.insert(passwordResets).values({ tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
  const link = `${origin}/auth/reset-password?token=${token}`;
  await queueMail(db, {
    to: user.email,
    subject: t('auth.mail.reset.subject'),
    text: t('auth.mail.reset.body', { link }),
    locale,
    kind: 'password_reset',
  });
}

export function invalidLink(): ApiError {
  return new ApiError(400, 'invalid_link', 'auth.reset.invalid');
}

/** True while a reset link is unused and within its hour. */
export async function resetLinkIsValid(db: Db, token: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: passwordResets.userId })
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())));
  return Boolean(row);
}

/**
 * Sets a new password from a reset link. The link is spent in the same statement that checks it,
 * so two uses at once cannot both succeed; every session and every other link of the user ends.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
      .returning({ userId: passwordResets.userId });
    if (!spent) throw invalidLink();
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, spent.userId));
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, spent.userId), isNull(passwordResets.usedAt)));
    await revokeUserSessions(tx as unknown as Db, spent.userId);
    return spent.userId;
  });
  // The reset link reached the address, which proves it as the verification link would; and the
  // new password ends whatever anyone who signed up with this address before its owner knew.
  await markEmailVerified(db, userId);
  return userId;
}
