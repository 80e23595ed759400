/**
 * Push subscriptions and the pushes queued for them. A subscription belongs to an account, to
 * a guest's device (the token its watches carry, kept hashed), or to a guest's 順番待ち entry (its
 * page's secret link proves it; it goes when the entry ends); another owner's is not found. A
 * push is a row of `push_outbox` written in the transaction of the work it tells of (the alert's
 * claim, the reminder's, the call), and sent apart by the worker (src/server/push/worker.ts), so a
 * slow push service never holds a request or a job.
 */
import { and, asc, desc, eq, inArray, isNull, notInArray, or } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { pushOutbox, pushSubscriptions } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { config } from '../config';
import { hashToken } from '../sessions';
import { toTokyoIso } from '../../lib/datetime';
import { PUSH_SUBSCRIPTIONS_MAX, type PushPayload, type PushSubscriptionInput, type PushSubscriptionJson } from '../../lib/contract/push';
import { acceptableEndpoint } from './endpoint';
import type { T } from '../../i18n';

export type PushOwner = { kind: 'user'; userId: number } | { kind: 'device'; token: string } | { kind: 'queueEntry'; entryId: number };

const ownedBy = (owner: PushOwner) =>
  owner.kind === 'user'
    ? eq(pushSubscriptions.userId, owner.userId)
    : owner.kind === 'device'
      ? and(isNull(pushSubscriptions.userId), eq(pushSubscriptions.deviceTokenHash, hashToken(owner.token)))
      : and(isNull(pushSubscriptions.userId), isNull(pushSubscriptions.deviceTokenHash), eq(pushSubscriptions.queueEntryId, owner.entryId));

const json = (row: typeof pushSubscriptions.$inferSelect): PushSubscriptionJson => ({ id: row.id, label: row.label, created_at: toTokyoIso(row.createdAt) });

/**
 * Keeps a browser's subscription for its owner (the same endpoint again: the newest owner and keys
 * win, as the browser now holds only those); an owner's oldest goes past PUSH_SUBSCRIPTIONS_MAX.
 */
export async function subscribe(db: Db, t: T, owner: PushOwner, input: PushSubscriptionInput, locale: string): Promise<PushSubscriptionJson> {
  if (!acceptableEndpoint(input.endpoint, config().PUSH_ALLOW_LOCAL_ENDPOINTS)) {
    throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { endpoint: t('push.error.endpoint') } });
  }
  const values = {
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userId: owner.kind === 'user' ? owner.userId : null,
    deviceTokenHash: owner.kind === 'device' ? hashToken(owner.token) : null,
    queueEntryId: owner.kind === 'queueEntry' ? owner.entryId : null,
    locale,
    label: input.label?.trim() ?? '',
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...values, createdAt: new Date() } })
      .returning();
    const keep = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(ownedBy(owner))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
      .limit(PUSH_SUBSCRIPTIONS_MAX);
    await tx.delete(pushSubscriptions).where(and(ownedBy(owner), notInArray(pushSubscriptions.id, keep)));
    return json(row!);
  });
}

export async function listSubscriptions(db: Db, owner: PushOwner): Promise<PushSubscriptionJson[]> {
  const rows = await db.select().from(pushSubscriptions).where(ownedBy(owner)).orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  return rows.map(json);
}

/** Removes one of the owner's devices (its waiting pushes go with it); anyone else's is not found. */
export async function unsubscribe(db: Db, id: number, owner: PushOwner): Promise<void> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), ownedBy(owner)))
    .returning({ id: pushSubscriptions.id });
  if (!gone.length) throw notFound();
}

type QueuedHook = (db: Db) => void;
const queuedHooks = new Set<QueuedHook>();

/** Runs after pushes are queued on this instance (the worker sends at once). */
export function onPushQueued(hook: QueuedHook): () => void {
  queuedHooks.add(hook);
  return () => queuedHooks.delete(hook);
}

/** Says that pushes were queued on `db` (after the transaction that wrote them committed). */
export function pushQueued(db: Db): void {
  for (const hook of queuedHooks) hook(db);
}

/** Whom a push goes to: accounts, guests' devices (the hashes their watches keep) and the devices following 順番待ち entries. */
export interface PushTargets {
  userIds?: readonly number[];
  deviceTokenHashes?: readonly string[];
  queueEntryIds?: readonly number[];
}

/**
 * Queues one push per device of the targets, written in each device's language by `payload`.
 * Inside the work's transaction: call pushQueued(db) once it has committed. Returns how many.
 */
export async function queuePushes(q: Q, targets: PushTargets, kind: string, payload: (locale: string) => PushPayload): Promise<number> {
  const users = [...new Set(targets.userIds ?? [])];
  const devices = [...new Set(targets.deviceTokenHashes ?? [])];
  const entries = [...new Set(targets.queueEntryIds ?? [])];
  if (!users.length && !devices.length && !entries.length) return 0;
  const subs = await q
    .select({ id: pushSubscriptions.id, locale: pushSubscriptions.locale })
    .from(pushSubscriptions)
    .where(
      or(
        users.length ? inArray(pushSubscriptions.userId, users) : undefined,
        devices.length ? and(isNull(pushSubscriptions.userId), inArray(pushSubscriptions.deviceTokenHash, devices)) : undefined,
        entries.length ? inArray(pushSubscriptions.queueEntryId, entries) : undefined,
      ),
    );
  if (!subs.length) return 0;
  await q.insert(pushOutbox).values(subs.map((s) => ({ subscriptionId: s.id, kind, payload: JSON.stringify(payload(s.locale)) })));
  return subs.length;
}
