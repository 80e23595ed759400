/**
 * Invitations to the store host: staff accounts are not open to the world. The platform's admin
 * invites a new company's owner (src/server/admin/stores.ts) and an owner invites further staff;
 * the link's token is random, kept only as its hash, good for INVITATION_DAYS and spent once, in the
 * same statement that checks it.
 *
 * One module: an invitation's life (written, listed, withdrawn, taken up) shares the token rule,
 * the limits and the owner check; the exports are those steps.
 */
import { and, asc, eq, gt, inArray, isNull, type SQL } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db, Q } from '../db/types';
import { invitations, staffStores, stores, tenants, users } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { addressKey, consume, LIMITS, limitKey, recipientKey } from '../http/rateLimit';
import { config } from '../config';
import { queueMail, mailQueued } from '../mail/outbox';
import { hashPassword } from '../passwords';
import { createSession, hashToken, newToken } from '../sessions';
import { emailTaken, findUserByEmail, newPasswordSchema, pgCode, tokenSchema } from '../auth';
import type { MessageKey, T } from '../../i18n';
import { INVITATION_DAYS, signupFieldsSchema, type InvitationJson } from '../../lib/contract/admin';
import type { InvitationRole } from '../../lib/contract/enums';
import { audit } from './audit';
import type { StaffScope } from './access';

const DAY_MS = 24 * 60 * 60_000;

/** `POST /api/store/signup` and the sign-up form: the link's token and the new account's details. */
export const signupSchema = z.object({ token: tokenSchema, ...signupFieldsSchema.shape, password: newPasswordSchema });
export type SignupInput = z.infer<typeof signupSchema>;

/**
 * Why a link signs no one up. Whoever holds a withdrawn or out-of-date link was sent it, so they are
 * told which, and that a new invitation is the way on; a link unknown or already taken up is only invalid.
 */
const REFUSALS = { revoked: 'admin.signup.revoked', expired: 'admin.signup.expired', invalid: 'admin.signup.invalid' } as const satisfies Record<
  string,
  MessageKey
>;
export type LinkRefusal = keyof typeof REFUSALS;

export const invalidInvitation = (why: LinkRefusal = 'invalid') => new ApiError(400, 'invalid_link', REFUSALS[why]);
export const refusalMessage = (t: T, why: LinkRefusal) => t(REFUSALS[why]);

/** An invitation that can still be taken up: not used, not withdrawn, not out of date. */
const pendingAt = (now: Date): SQL => and(isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now))!;

/** Why the link of `token` is refused (it is assumed not pending). */
async function linkRefusal(q: Q, token: string): Promise<LinkRefusal> {
  if (!tokenSchema.safeParse(token).success) return 'invalid';
  const [row] = await q
    .select({ usedAt: invitations.usedAt, revokedAt: invitations.revokedAt, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(eq(invitations.tokenHash, hashToken(token)));
  if (!row || row.usedAt) return 'invalid';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt <= new Date() ? 'expired' : 'invalid';
}

/** Counts an invitation against its sender's and its address's limits (each one is a mail). */
export async function invitationLimits(db: Db, senderId: number, email: string): Promise<void> {
  await consume(db, [
    { key: limitKey('invite-account', String(senderId)), limit: LIMITS.invitePerAccount },
    { key: recipientKey('invite-addr', email), limit: LIMITS.invitePerEmail },
  ]);
}

/**
 * Writes an invitation and queues its mail inside the caller's transaction `q` (the caller says
 * mailQueued once it commits). The mail is in the sender's language, with the store host's link.
 */
export async function writeInvitation(
  q: Q,
  t: T,
  input: {
    tenantId: number;
    tenantName: string;
    tenantSlug: string;
    storeIds: number[];
    role: InvitationRole;
    email: string;
    createdBy: number;
    locale: string;
  },
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

/** The company of an owner's account; 403 for any other staff (only the owner invites and withdraws). */
export async function ownerTenant(q: Q, scope: StaffScope): Promise<{ id: number; name: string; slug: string }> {
  if (!(await isOwner(q, scope.userId))) throw new ApiError(403, 'forbidden', 'admin.invite.ownerOnly');
  const [tenant] = await q.select({ id: tenants.id, name: tenants.name, slug: tenants.slug }).from(tenants).where(eq(tenants.slug, scope.tenant));
  return tenant!;
}

/** An owner invites a member of staff to all of the company's stores; anyone else gets 403. */
export async function inviteStaff(db: Db, t: T, scope: StaffScope, email: string, locale: string): Promise<InvitationJson> {
  const tenant = await ownerTenant(db, scope);
  await invitationLimits(db, scope.userId, email);
  const result = await db.transaction(async (tx) => {
    const storeIds = (await tx.select({ id: stores.id }).from(stores).where(eq(stores.tenantId, tenant!.id)).orderBy(stores.id)).map((s) => s.id);
    const invitation = await writeInvitation(tx, t, {
      tenantId: tenant!.id,
      tenantName: tenant!.name,
      tenantSlug: tenant!.slug,
      storeIds,
      role: 'staff',
      email,
      createdBy: scope.userId,
      locale,
    });
    await audit(tx, scope, {
      action: 'invitation_create',
      storeId: storeIds[0] ?? null,
      targetId: invitation.id,
      after: { email, role: 'staff', store_ids: storeIds },
    });
    return invitation;
  });
  mailQueued(db);
  return result;
}

/**
 * The invitations of the given companies still waiting to be taken up, soonest to expire first,
 * by company id: what the owner's and the admin's lists show, and what they may withdraw.
 */
export async function pendingInvitations(q: Q, tenantIds: number[]): Promise<Map<number, InvitationJson[]>> {
  const byTenant = new Map<number, InvitationJson[]>();
  if (!tenantIds.length) return byTenant;
  const rows = await q
    .select({
      id: invitations.id,
      tenantId: invitations.tenantId,
      email: invitations.email,
      role: invitations.role,
      tenant: tenants.slug,
      storeIds: invitations.storeIds,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(and(inArray(invitations.tenantId, tenantIds), pendingAt(new Date())))
    .orderBy(asc(invitations.expiresAt), asc(invitations.id));
  for (const r of rows) {
    const list = byTenant.get(r.tenantId) ?? [];
    list.push({ id: r.id, email: r.email, role: r.role, tenant: r.tenant, store_ids: r.storeIds, expires_at: r.expiresAt.toISOString() });
    byTenant.set(r.tenantId, list);
  }
  return byTenant;
}

/** `GET /api/store/invitations` and the owner's list on /list-store-manage: the company's pending invitations. */
export async function ownerInvitations(db: Db, scope: StaffScope): Promise<InvitationJson[]> {
  const tenant = await ownerTenant(db, scope);
  return (await pendingInvitations(db, [tenant.id])).get(tenant.id) ?? [];
}

/**
 * Withdraws a pending invitation so that its link signs no one up: the owner's within its own
 * company (`tenantId`), the admin's anywhere (`null`). Another company's invitation, and one no
 * longer pending, is not found (404). Audited with what it was.
 */
export async function revokeInvitation(db: Db, who: { userId: number; email: string }, id: number, tenantId: number | null): Promise<InvitationJson> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.id, id), pendingAt(now), tenantId === null ? undefined : eq(invitations.tenantId, tenantId)))
      .returning({
        id: invitations.id,
        tenantId: invitations.tenantId,
        email: invitations.email,
        role: invitations.role,
        storeIds: invitations.storeIds,
        expiresAt: invitations.expiresAt,
      });
    if (!row) throw notFound();
    const [tenant] = await tx.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, row.tenantId));
    const json: InvitationJson = {
      id: row.id,
      email: row.email,
      role: row.role,
      tenant: tenant!.slug,
      store_ids: row.storeIds,
      expires_at: row.expiresAt.toISOString(),
    };
    await audit(tx, who, {
      action: 'invitation_revoke',
      storeId: row.storeIds[0] ?? null,
      targetId: row.id,
      before: { email: row.email, role: row.role, store_ids: row.storeIds, expires_at: json.expires_at, revoked_at: null },
      after: { revoked_at: now.toISOString() },
    });
    return json;
  });
}

/** The owner withdraws one of its company's invitations (`DELETE /api/store/invitations/{id}`, and the form). */
export async function ownerRevoke(db: Db, scope: StaffScope, id: number): Promise<InvitationJson> {
  const tenant = await ownerTenant(db, scope);
  return revokeInvitation(db, scope, id, tenant.id);
}

/** What a link offers: the address the account will have and the company it joins, or why it is refused. */
export async function invitationFor(db: Db, token: string): Promise<{ email: string; company: string } | { refused: LinkRefusal }> {
  if (!tokenSchema.safeParse(token).success) return { refused: 'invalid' };
  const [row] = await db
    .select({ email: invitations.email, company: tenants.name })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(and(eq(invitations.tokenHash, hashToken(token)), pendingAt(new Date())));
  return row ?? { refused: await linkRefusal(db, token) };
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
  await consume(db, [{ key: addressKey('signup-ip', client.ip), limit: LIMITS.signupPerIp }]);
  const passwordHash = await hashPassword(input.password);
  const made = await db
    .transaction(async (tx) => {
      const [spent] = await tx
        .update(invitations)
        .set({ usedAt: new Date() })
        .where(and(eq(invitations.tokenHash, hashToken(input.token)), pendingAt(new Date())))
        .returning({ id: invitations.id, tenantId: invitations.tenantId, storeIds: invitations.storeIds, role: invitations.role, email: invitations.email });
      if (!spent) throw invalidInvitation(await linkRefusal(tx, input.token));
      if (await findUserByEmail(tx as unknown as Db, spent.email)) throw emailTaken(t);
      const [tenant] = await tx.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, spent.tenantId));
      const storeIds = spent.storeIds.length
        ? (
            await tx
              .select({ id: stores.id })
              .from(stores)
              .where(and(eq(stores.tenantId, spent.tenantId), inArray(stores.id, spent.storeIds)))
              .orderBy(stores.id)
          ).map((s) => s.id)
        : [];
      const [user] = await tx
        .insert(users)
        .values({
          email: spent.email,
          passwordHash,
          name: input.name,
          nameKana: input.name_kana,
          role: 'staff',
          tenantId: spent.tenantId,
          owner: spent.role === 'owner',
          emailVerifiedAt: new Date(),
        })
        .returning({ id: users.id });
      if (storeIds.length) await tx.insert(staffStores).values(storeIds.map((storeId) => ({ userId: user!.id, storeId, tenantId: spent.tenantId })));
      await tx.update(invitations).set({ userId: user!.id }).where(eq(invitations.id, spent.id));
      await audit(
        tx,
        { userId: user!.id, email: spent.email },
        { action: 'invitation_accept', storeId: storeIds[0] ?? null, targetId: spent.id, after: { role: spent.role, store_ids: storeIds } },
      );
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
