/**
 * A signed-in user's own account: profile, password change and leaving (退会).
 *
 * One module: each body schema sits beside the operation that reads it (profile, password,
 * leaving), so a field's rule and its use are read together; the exports are those pairs.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from './db/types';
import { bookings, favourites, mailOutbox, passwordResets, sessions, users, viewingHistory } from './db/schema';
import { ApiError, notFound, safeString } from './http/api';
import { consume, LIMITS, limitKey } from './http/rateLimit';
import { emailSchema, emailTaken, nameSchema, newPasswordSchema, pgCode } from './auth';
import { sendVerification } from './emailVerification';
import { shownEmail } from './placeholderEmail';
import { ACCOUNT_NAME_MAX, PASSWORD_MAX } from '../lib/contract/limits';
import { hashPassword, verifyPassword } from './passwords';
import { revokeUserSessions } from './sessions';
import { publishAvailabilityChange } from './events';
import { optionalKanaField, optionalPhoneField } from '../lib/contract/fields';
import type { T } from '../i18n';
import { OIDC_PROVIDERS } from '../lib/contract/paths';

export interface Account {
  id: number;
  /** Empty for an account that has no address yet (made by a provider that gave none). */
  email: string;
  name: string;
  name_kana: string;
  phone: string;
  /** False until the address is verified: until then nothing but the verification link is mailed to it. */
  email_verified: boolean;
}

export const profileSchema = z.partial(
  z.object({ name: nameSchema, name_kana: optionalKanaField(ACCOUNT_NAME_MAX), phone: optionalPhoneField, email: emailSchema }),
);

/**
 * The account page's form, which sends every field: each one is checked (an emptied name is an
 * error, not "unchanged"), except that an account without an address may leave the address empty.
 */
export function profileFormSchema(hasAddress: boolean) {
  const required = z.required(profileSchema, { name: true, email: true });
  if (hasAddress) return required;
  return z.extend(required, {
    email: z.pipe(
      z.union([z.literal(''), emailSchema]),
      z.transform((v) => v || undefined),
    ),
  });
}

export const changePasswordSchema = z.object({
  current_password: safeString().check(z.minLength(1), z.maxLength(PASSWORD_MAX)),
  new_password: newPasswordSchema,
});

export const leaveSchema = z.object({
  password: safeString().check(z.minLength(1), z.maxLength(PASSWORD_MAX)),
  confirm: z.boolean().check(z.refine((v) => v, { message: 'account.validation.confirmLeave' })),
});

/**
 * Leaving without a password: confirmed, and the linked provider to sign in to afresh
 * (src/server/oidcLeave.ts). The provider is checked against the linked ones by the page.
 */
export const leaveWithProviderSchema = z.object({
  provider: z.enum(OIDC_PROVIDERS),
  confirm: z.boolean().check(z.refine((v) => v, { message: 'account.validation.confirmLeave' })),
});

/**
 * Leaving through the API (DELETE /api/me): an account with a password sends it; an account
 * without one may name which linked provider confirms it (else its first), and is answered with
 * that provider's fresh sign-in to follow (src/server/oidcLeave.ts leaveFromApi).
 */
export const leaveApiSchema = z.object({
  password: z.optional(safeString().check(z.minLength(1), z.maxLength(PASSWORD_MAX))),
  provider: z.optional(z.enum(OIDC_PROVIDERS)),
  confirm: z.boolean().check(z.refine((v) => v, { message: 'account.validation.confirmLeave' })),
});

export async function getAccount(db: Db, userId: number): Promise<Account> {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, name_kana: users.nameKana, phone: users.phone, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound();
  const { verifiedAt, email, ...account } = row;
  return { ...account, email: shownEmail(email), email_verified: verifiedAt !== null };
}

export async function updateAccount(
  db: Db,
  t: T,
  userId: number,
  patch: z.infer<typeof profileSchema>,
  client: { origin: string; locale: string },
): Promise<Account> {
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.name_kana !== undefined) set.nameKana = patch.name_kana;
  if (patch.phone !== undefined) set.phone = patch.phone;
  const before = patch.email !== undefined ? await getAccount(db, userId) : undefined;
  // A new address is unverified again: it gets the verification link and nothing else until it is used.
  const changed = before && patch.email !== undefined && before.email.toLowerCase() !== patch.email.toLowerCase();
  if (patch.email !== undefined) set.email = patch.email;
  if (changed) set.emailVerifiedAt = null;
  try {
    await db.update(users).set(set).where(eq(users.id, userId));
  } catch (error) {
    if (pgCode(error) === '23505') throw emailTaken(t);
    throw error;
  }
  if (changed) await sendVerification(db, t, { id: userId, email: patch.email! }, client);
  return getAccount(db, userId);
}

function wrongPassword(t: T, field: string): ApiError {
  return new ApiError(400, 'wrong_password', 'account.error.wrongPassword', { fields: { [field]: t('account.error.wrongPassword') } });
}

/**
 * Checks a signed-in user's password. Wrong guesses count per account with the sign-in limit, so a
 * borrowed session cannot be used to guess the password (and, needing a session, cannot lock anyone out).
 */
async function checkPassword(db: Db, t: T, userId: number, password: string, field: string): Promise<void> {
  const [row] = await db.select({ email: users.email, hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound();
  if (await verifyPassword(row.hash, password)) return;
  await consume(db, [{ key: limitKey('password-check', String(userId)), limit: LIMITS.loginPerPair }]);
  throw wrongPassword(t, field);
}

/** Needs the current password; ends every other session of the user (the one asking stays). */
export async function changePassword(db: Db, t: T, userId: number, input: z.infer<typeof changePasswordSchema>, keepSessionId: string | null): Promise<void> {
  await checkPassword(db, t, userId, input.current_password, 'current_password');
  const passwordHash = await hashPassword(input.new_password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await revokeUserSessions(tx as unknown as Db, userId, keepSessionId);
  });
}

export interface LeaveResult {
  cancelledBookings: number;
  anonymisedBookings: number;
}

/** Leaving with the account's password (an account without one confirms at its provider: src/server/oidcLeave.ts). */
export async function leave(db: Db, t: T, userId: number, password: string): Promise<LeaveResult> {
  await checkPassword(db, t, userId, password, 'password');
  return deleteAccount(db, userId);
}

/**
 * Leaving, once the diner has proved it is them: personal data, favourites, viewing history,
 * sessions and reset links are deleted; bookings not yet started are cancelled so their tables
 * free up; every booking left behind keeps no trace of the person (no user, no note, no contact).
 * The address may sign up again.
 */
export async function deleteAccount(db: Db, userId: number): Promise<LeaveResult> {
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound();
    const cancelled = await tx
      .update(bookings)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(and(eq(bookings.userId, userId), eq(bookings.status, 'confirmed'), gt(bookings.startsAt, now)))
      .returning({ storeId: bookings.storeId });
    const anonymised = await tx
      .update(bookings)
      .set({ userId: null, note: '', guestName: null, guestNameKana: null, guestPhone: null, guestEmail: null, guestTokenHash: null, updatedAt: now })
      .where(eq(bookings.userId, userId))
      .returning({ id: bookings.id });
    await tx.delete(favourites).where(eq(favourites.userId, userId));
    await tx.delete(viewingHistory).where(eq(viewingHistory.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(passwordResets).where(eq(passwordResets.userId, userId));
    // Mails already handed over stay with the mail provider; our copies of them go.
    await tx.delete(mailOutbox).where(sql`lower(${mailOutbox.toAddress}) = lower(${user.email})`);
    await tx.delete(users).where(eq(users.id, userId));
    return { storeIds: cancelled.map((c) => c.storeId), cancelledBookings: cancelled.length, anonymisedBookings: anonymised.length };
  });
  await publishAvailabilityChange(db, result.storeIds);
  return { cancelledBookings: result.cancelledBookings, anonymisedBookings: result.anonymisedBookings };
}
