/**
 * Verifying an account's e-mail address. A new account (and one whose address changed) is
 * unverified: it may sign in and book, but until the link mailed here is used the outbox sends its
 * address nothing but that link (src/server/mail/outbox.ts, MAIL_BEFORE_VERIFICATION), and its
 * watches wait unconfirmed. Links are random, stored hashed, single use, valid for
 * EMAIL_VERIFY_TTL_HOURS, and only for the address they were sent to.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from './db/types';
import { emailVerifications, users, watches } from './db/schema';
import { ApiError } from './http/api';
import { addressKey, consume, LIMITS, limitKey } from './http/rateLimit';
import { hashToken, newToken } from './sessions';
import { queueMail } from './mail/outbox';
import { watchAdded } from './watches/matcher';
import { announceWatch } from './watches/feed';
import { clock } from './clock';
import { isPlaceholderEmail } from './placeholderEmail';
import type { T } from '../i18n';
import { EMAIL_VERIFY_TTL_HOURS } from '../lib/contract/limits';
import { authPaths } from '../lib/contract/paths';

const TTL_MS = EMAIL_VERIFY_TTL_HOURS * 60 * 60_000;

/** Mails a fresh verification link to the account's current address. */
export async function sendVerification(db: Db, t: T, user: { id: number; email: string }, client: { origin: string; locale: string }): Promise<void> {
  const token = newToken();
  await db.insert(emailVerifications).values({ tokenHash: hashToken(token), userId: user.id, email: user.email, expiresAt: new Date(Date.now() + TTL_MS) });
  const link = `${client.origin}${authPaths.verify}?token=${token}`;
  await queueMail(db, {
    to: user.email,
    subject: t('auth.mail.verify.subject'),
    text: t('auth.mail.verify.body', { link, hours: EMAIL_VERIFY_TTL_HOURS }),
    locale: client.locale,
    kind: 'email_verification',
  });
}

/** Whether the account's address is verified (false for an account that does not exist). */
export async function isEmailVerified(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
  return Boolean(row?.at);
}

/**
 * Sends the link again to a signed-in, unverified account: limited per account and per address
 * group (429 past either). An account already verified is answered alike and mailed nothing.
 */
export async function resendVerification(db: Db, t: T, userId: number, client: { ip: string; origin: string; locale: string }): Promise<void> {
  await consume(db, [
    { key: limitKey('verify-account', String(userId)), limit: LIMITS.verifyResendPerAccount },
    { key: addressKey('verify-ip', client.ip), limit: LIMITS.verifyResendPerIp },
  ]);
  const [user] = await db.select({ id: users.id, email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
  // No address yet (src/server/placeholderEmail.ts): nothing to verify until the diner adds one.
  if (!user || user.verifiedAt || isPlaceholderEmail(user.email)) return;
  await sendVerification(db, t, user, client);
}

export function invalidVerifyLink(): ApiError {
  return new ApiError(400, 'invalid_link', 'auth.verify.invalid');
}

/**
 * Uses a verification link: spent in the statement that checks it (two uses at once cannot both
 * succeed), valid only while the account still has the address it was sent to. Verifies the
 * address, spends the account's other links, and confirms the watches that waited for it.
 * Returns the account's id; 400 `invalid_link` for an unknown, used, expired or outdated link.
 */
export async function verifyEmail(db: Db, token: string): Promise<number> {
  const now = new Date();
  const userId = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(and(eq(emailVerifications.tokenHash, hashToken(token)), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, now)))
      .returning({ userId: emailVerifications.userId, email: emailVerifications.email });
    if (!spent) throw invalidVerifyLink();
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, spent.userId)).for('update');
    if (!user || user.email.toLowerCase() !== spent.email.toLowerCase()) throw invalidVerifyLink();
    await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(and(eq(users.id, spent.userId), isNull(users.emailVerifiedAt)));
    await tx
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(and(eq(emailVerifications.userId, spent.userId), isNull(emailVerifications.usedAt)));
    return spent.userId;
  });
  await confirmWaitingWatches(db, userId);
  return userId;
}

/** Marks an account verified by another proof of its mailbox (a password reset link). */
export async function markEmailVerified(db: Db, userId: number): Promise<void> {
  const [row] = await db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
    .returning({ id: users.id });
  if (row) await confirmWaitingWatches(db, userId);
}

/** The account's watches made before its address was verified start now. */
async function confirmWaitingWatches(db: Db, userId: number): Promise<void> {
  const rows = await db
    .update(watches)
    .set({ confirmedAt: clock.now() })
    .where(and(eq(watches.userId, userId), isNull(watches.confirmedAt), isNull(watches.cancelledAt), gt(watches.endsAt, clock.now())))
    .returning();
  for (const row of rows) {
    watchAdded(db, row);
    await announceWatch(db, row.id);
  }
}
