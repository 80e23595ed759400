/**
 * Invitations to the store host: staff accounts are not open to the world. The platform's admin
 * invites a new company's owner (src/server/admin/stores.ts) and an owner invites further staff;
 * the link's token is random, kept only as its hash, good for INVITATION_DAYS and spent once, in the
 * same statement that checks it.
 */
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Q } from '../db/types';
import { invitations, staffStores, stores, tenants, users } from '../db/schema';
import { ApiError } from '../http/api';
import { consume, LIMITS, limitKey } from '../http/rateLimit';
import { config } from '../config';
import { queueMail, mailQueued } from '../mail/outbox';
import { hashPassword } from '../passwords';
import { createSession, hashToken, newToken } from '../sessions';
import { emailTaken, findUserByEmail, newPasswordSchema, pgCode, tokenSchema } from '../auth';
import type { T } from '../../i18n';
import { INVITATION_DAYS, signupFieldsSchema, type InvitationJson } from '../../lib/contract/admin';
import type { InvitationRole } from '../../lib/contract/enums';
import { audit } from './audit';
import type { StaffScope } from './access';

const DAY_MS = 24 * 60 * 60_000;

/** `POST /api/store/signup` and the sign-up form: the link's token and the new account's details. */
export const signupSchema = z.object({ token: tokenSchema, ...signupFieldsSchema.shape, password: newPasswordSchema });
export type SignupInput = z.infer<typeof signupSchema>;

/** The one answer for a link that is unknown, spent or out of date: which it was is nobody's business. */
export const invalidInvitation = () => new ApiError(400, 'invalid_link', 'admin.signup.invalid');

/** Counts an invitation against its sender's and its address's limits (each one is a mail). */
export async function invitationLimits(db: Db, senderId: number, email: string): Promise<void> {
  await consume(db, [
    { key: limitKey('invite-account', String(senderId)), limit: LIMITS.invitePerAccount },
    { key: limitKey('invite-addr', email), limit: LIMITS.invitePerEmail },
  ]);
}

/**
 * Writes an invitation and queues its mail inside the caller's transaction `q` (the caller says
 * mailQueued once it commits). The mail is in the sender's language, with the store host's link.
 */
export async function writeInvitation(
  q: Q,
  t: T,
  input: { tenantId: number; tenantName: string; tenantSlug: string; storeIds: number[]; role: InvitationRole; email: string; createdBy: number; locale: string },
): Promise<InvitationJson> {
  const email = input.email.toLowerCase();
  const token = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * DAY_MS);
  const [row] = await q
    .insert(invitations)
    .values({ tokenHash: hashToken(token), tenantId: input.tenantId, storeIds: input.storeIds, role: input.role, email, createdBy: input.createdBy, expiresAt })
    .returning({ id: invitations.id });
  const link = `${config().STORE_HOST}/store-signup?token=${token}`;
  await queueMail(q, {
    to: email,
    subject: t('admin.mail.subject', { company: input.tenantName }),
    text: t('admin.mail.body', { company: input.tenantName, link, days: INVITATION_DAYS }),
    locale: input.locale,
    kind: 'staff_invitation',
  });
  return { id: row!.id, email, role: input.role, tenant: input.tenantSlug, store_ids: input.storeIds, expires_at: expiresAt.toISOString() };
}

/** True when the account owns its company's account on Sugu (it may invite staff). */
export async function isOwner(q: Q, userId: number): Promise<boolean> {
  const [row] = await q.select({ owner: users.owner }).from(users).where(eq(users.id, userId));
  return row?.owner === true;
}

/** An owner invites a member of staff to all of the company's stores; anyone else gets 403. */
export async function inviteStaff(db: Db, t: T, scope: StaffScope, email: string, locale: string): Promise<InvitationJson> {
  if (!(await isOwner(db, scope.userId))) throw new ApiError(403, 'forbidden', 'admin.invite.ownerOnly');
  await invitationLimits(db, scope.userId, email);
  const result = await db.transaction(async (tx) => {
    const [tenant] = await tx
      .select({ id: tenants.id, name: tenants.name, slug: tenants.slug })
      .from(tenants)
      .where(eq(tenants.slug, scope.tenant));
    const storeIds = (await tx.select({ id: stores.id }).from(stores).where(eq(stores.tenantId, tenant!.id)).orderBy(stores.id)).map((s) => s.id);
    const invitation = await writeInvitation(tx, t, { tenantId: tenant!.id, tenantName: tenant!.name, tenantSlug: tenant!.slug, storeIds, role: 'staff', email, createdBy: scope.userId, locale });
    await audit(tx, scope, { action: 'invitation_create', storeId: storeIds[0] ?? null, targetId: invitation.id, after: { email, role: 'staff', store_ids: storeIds } });
    return invitation;
  });
  mailQueued(db);
  return result;
}

/** What a valid link offers: the address the account will have and the company it joins; null for any other link. */
export async function invitationFor(db: Db, token: string): Promise<{ email: string; company: string } | null> {
  if (!tokenSchema.safeParse(token).success) return null;
  const [row] = await db
    .select({ email: invitations.email, company: tenants.name })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(and(eq(invitations.tokenHash, hashToken(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, new Date())));
  return row ?? null;
}

/**
 * Takes up an invitation: the staff account for the invited address, linked to the invited stores
 * (those still the company's), and a session for it. The link is spent in the statement that
 * checks it, so two sign-ups with one link cannot both succeed; an address that already has an
 * account leaves the link unspent (409).
 */
export async function acceptInvitation(
  db: Db,
  t: T,
  input: SignupInput,
  client: { ip: string; userAgent?: string | null },
): Promise<{ userId: number; token: string; expiresAt: Date; storeIds: number[]; tenant: string }> {
  // Counted as any sign-up: hashing a password is the costly part, whoever asks.
  await consume(db, [{ key: limitKey('signup-ip', client.ip), limit: LIMITS.signupPerIp }]);
  const passwordHash = await hashPassword(input.password);
  const made = await db
    .transaction(async (tx) => {
      const [spent] = await tx
        .update(invitations)
        .set({ usedAt: new Date() })
        .where(and(eq(invitations.tokenHash, hashToken(input.token)), isNull(invitations.usedAt), gt(invitations.expiresAt, new Date())))
        .returning({ id: invitations.id, tenantId: invitations.tenantId, storeIds: invitations.storeIds, role: invitations.role, email: invitations.email });
      if (!spent) throw invalidInvitation();
      if (await findUserByEmail(tx as unknown as Db, spent.email)) throw emailTaken(t);
      const [tenant] = await tx.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, spent.tenantId));
      const storeIds = spent.storeIds.length
        ? (await tx.select({ id: stores.id }).from(stores).where(and(eq(stores.tenantId, spent.tenantId), inArray(stores.id, spent.storeIds))).orderBy(stores.id)).map((s) => s.id)
        : [];
      const [user] = await tx
        .insert(users)
        .values({ email: spent.email, passwordHash, name: input.name, nameKana: input.name_kana, role: 'staff', tenantId: spent.tenantId, owner: spent.role === 'owner' })
        .returning({ id: users.id });
      if (storeIds.length) await tx.insert(staffStores).values(storeIds.map((storeId) => ({ userId: user!.id, storeId, tenantId: spent.tenantId })));
      await tx.update(invitations).set({ userId: user!.id }).where(eq(invitations.id, spent.id));
      await audit(tx, { userId: user!.id, email: spent.email }, { action: 'invitation_accept', storeId: storeIds[0] ?? null, targetId: spent.id, after: { role: spent.role, store_ids: storeIds } });
      return { userId: user!.id, storeIds, tenant: tenant!.slug };
    })
    .catch((error: unknown) => {
      // The same address signing up at once through two links: the unique index decides.
      if (pgCode(error) === '23505') throw emailTaken(t);
      throw error;
    });
  const session = await createSession(db, made.userId, client.userAgent);
  return { ...made, token: session.token, expiresAt: session.expiresAt };
}
