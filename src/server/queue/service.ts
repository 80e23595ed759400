/**
 * The 順番待ち from the diner's side: joining a store's queue, seeing one's place and the estimated
 * wait, and leaving it. Every state change goes through `moveEntry`, which applies the one table of
 * legal moves (src/lib/contract/queue.ts) under the entry's row lock, stamps the state's time and
 * writes the audit line in the same transaction; anything else is 409 `queue_state`. A guest's
 * entry is theirs by a random token kept only as its hash; someone else's entry is "not found".
 *
 * One module: every change a diner makes goes through `moveEntry` and `ownedBy`; joining, reading
 * and leaving sit beside them so that the one table of legal moves is applied in one place.
 */
import { and, asc, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { pushSubscriptions, queueEntries, stores } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { hashToken, newToken } from '../sessions';
import { publishAvailabilityChange } from '../events';
import { audit, type AuditAction } from '../staff/audit';
import { bookableNow, isOpenFor, loadStoreStates, openingIntervals, type StoreState } from '../availability';
import { canMove, QUEUE_ACTIVE, QUEUES_PER_DINER, type QueueEntryJson, type QueueJoinInput, type QueueState } from '../../lib/contract/queue';
import { normalisePhone } from '../../lib/validation';
import { normaliseRecipient } from '../../lib/contract/recipient';
import { MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import type { StoreDetail } from '../stores/detail';
import { TOKEN_MAX } from '../../lib/contract/limits';
import { estimateWait } from './estimate';
import { subscribe } from '../push/service';
import type { PushSubscriptionInput, PushSubscriptionJson } from '../../lib/contract/push';
import type { T } from '../../i18n';
import { clock } from '../clock';

/** Who asks: a signed-in diner (by account), and/or whoever holds a guest entry's token. */
export interface QueueActor {
  userId: number | null;
  email?: string;
  token: string | null;
}

/** Who joins: an account, or a guest's browser (the hash of its device id). */
export type QueueJoiner = { kind: 'user'; userId: number; email: string } | { kind: 'guest'; device: string };

/** Bookings that may hold a table over the next hours, for the estimate and the "nothing within the hour" rule. */
const STATE_SPAN_MS = 24 * 60 * MINUTE_MS;

const stateError = () => new ApiError(409, 'queue_state', 'queue.error.state');

/** The store's bookings, hours and tables around `now`; null for an unknown store. */
async function storeState(db: Db, storeId: number, now: Date): Promise<StoreState | null> {
  const states = await loadStoreStates(db, [storeId], new Date(now.getTime() - STATE_SPAN_MS), new Date(now.getTime() + STATE_SPAN_MS));
  return states.get(storeId) ?? null;
}

/**
 * Whether diners may join the store's queue now: while the store is open, and either always where
 * the store says so, or only while no start within the hour has a table for the party (`freeNow`:
 * already known to the caller). Null for an unknown store.
 */
export async function queueOpen(
  db: Db,
  storeId: number,
  party: number,
  now = clock.now(),
  freeNow?: boolean,
): Promise<{ open: boolean; always: boolean } | null> {
  const [store] = await db.select({ mode: stores.queueMode }).from(stores).where(eq(stores.id, storeId));
  if (!store) return null;
  const always = store.mode === 'always';
  if (!always && freeNow) return { open: false, always };
  const state = await storeState(db, storeId, now);
  if (!state) return null;
  const minute = new Date(now.getTime() + MINUTE_MS);
  const openNow = isOpenFor(openingIntervals(state.hours, now, minute, state.overrides), now, minute);
  return { open: openNow && (always || bookableNow(state, party, now).nextSlots.length === 0), always };
}

/**
 * `queueOpen` for the store page, from what the page already holds: the store's kept details (mode,
 * hours, one-off days) and whether a start within the hour is free. No database round trip, so the
 * offer costs the page nothing (a store page is read far more often than a queue is joined; the
 * join itself checks again with `queueOpen`).
 */
export function queueOffered(
  store: Pick<StoreDetail, 'queueMode' | 'hours' | 'closures'>,
  freeNow: boolean,
  now = clock.now(),
): { open: boolean; always: boolean } {
  const always = store.queueMode === 'always';
  if (!always && freeNow) return { open: false, always };
  const minute = new Date(now.getTime() + MINUTE_MS);
  const overrides = store.closures.map((c) => ({ date: c.date, hours: c.hours.map(([opensMin, closesMin]) => ({ opensMin, closesMin })) }));
  return { open: isOpenFor(openingIntervals(store.hours, now, minute, overrides), now, minute), always };
}

/** The entries of this diner still in some queue: by account, or for a guest by device, phone or e-mail. */
function sameDiner(joiner: QueueJoiner, input: QueueJoinInput) {
  if (joiner.kind === 'user') return eq(queueEntries.userId, joiner.userId);
  const phone = input.phone ? normalisePhone(input.phone) : null;
  return or(
    eq(queueEntries.deviceHash, joiner.device),
    phone ? eq(queueEntries.phone, phone) : undefined,
    input.email ? sql`lower(${queueEntries.email}) = lower(${input.email})` : undefined,
  );
}

/**
 * Puts the party in the store's queue: 409 `queue_closed` while a start within the hour is free
 * (unless the store is always open to the queue), 409 `too_many_queues` when the diner already
 * waits in QUEUES_PER_DINER. A guest gets the entry's token once.
 */
export async function joinQueue(
  db: Db,
  storeId: number,
  input: QueueJoinInput,
  joiner: QueueJoiner,
  locale: string,
  now = clock.now(),
): Promise<{ id: number; token: string | null }> {
  const open = await queueOpen(db, storeId, input.party_size, now);
  if (open === null) throw notFound();
  if (!open.open) throw new ApiError(409, 'queue_closed', 'queue.error.closed');
  const token = joiner.kind === 'guest' ? newToken() : null;
  const id = await db.transaction(async (tx) => {
    // One diner's joins are decided one after the other, so a burst cannot pass the limit. A guest is
    // known by the device and by the phone and address given: each is locked (in one order, so two
    // joins never wait on each other), so two phones with the same number cannot both pass at once.
    const phone = input.phone ? normalisePhone(input.phone) : null;
    const who =
      joiner.kind === 'user'
        ? [`user:${joiner.userId}`]
        : [`device:${joiner.device}`, phone && `phone:${phone}`, input.email && `email:${normaliseRecipient(input.email)}`]
            .filter((k): k is string => !!k)
            .sort();
    for (const key of who) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`queue-join:${key}`}))`);
    const [{ n }] = (await tx
      .select({ n: count() })
      .from(queueEntries)
      .where(and(sameDiner(joiner, input), inArray(queueEntries.state, [...QUEUE_ACTIVE])))) as [{ n: number }];
    if (n >= QUEUES_PER_DINER) throw new ApiError(409, 'too_many_queues', 'queue.error.tooMany', { params: { max: QUEUES_PER_DINER } });
    const [row] = await tx
      .insert(queueEntries)
      .values({
        storeId,
        userId: joiner.kind === 'user' ? joiner.userId : null,
        guestTokenHash: token ? hashToken(token) : null,
        deviceHash: joiner.kind === 'guest' ? joiner.device : null,
        partySize: input.party_size,
        name: input.name.trim(),
        phone: input.phone ? normalisePhone(input.phone) : null,
        email: input.email ?? null,
        locale,
        joinedAt: now,
      })
      .returning({ id: queueEntries.id });
    await audit(tx, actorOf(joiner, input), {
      action: 'queue_join',
      storeId,
      targetId: row!.id,
      after: { state: 'waiting', party_size: input.party_size, joined_at: toTokyoIso(now) },
    });
    return row!.id;
  });
  // Pages of the queue (the diners ahead and behind, the store's ledger) redraw.
  await publishAvailabilityChange(db, [storeId]);
  return { id, token };
}

const actorOf = (joiner: QueueJoiner, input: QueueJoinInput) =>
  joiner.kind === 'user' ? { userId: joiner.userId, email: joiner.email } : { userId: null, email: input.email ?? '' };

/** The entry's owner condition: the account's, or the one whose token hashes to the stored hash. */
export function ownedBy(actor: QueueActor) {
  const token = actor.token && actor.token.length <= TOKEN_MAX ? hashToken(actor.token) : null;
  // The call's mail carries a link of its own (its token's hash in `mailTokenHash`): either opens the entry.
  const mine = [
    actor.userId !== null ? eq(queueEntries.userId, actor.userId) : undefined,
    token ? eq(queueEntries.guestTokenHash, token) : undefined,
    token ? eq(queueEntries.mailTokenHash, token) : undefined,
  ].filter((c) => c !== undefined);
  return mine.length ? or(...mine) : sql`false`;
}

const entryColumns = {
  id: queueEntries.id,
  storeId: queueEntries.storeId,
  storeName: stores.name,
  partySize: queueEntries.partySize,
  name: queueEntries.name,
  state: queueEntries.state,
  joinedAt: queueEntries.joinedAt,
  calledAt: queueEntries.calledAt,
  claimDeadline: queueEntries.claimDeadline,
  seatedAt: queueEntries.seatedAt,
  noShowAt: queueEntries.noShowAt,
  canceledAt: queueEntries.canceledAt,
  expiredAt: queueEntries.expiredAt,
  bookingId: queueEntries.bookingId,
};

/** One's entry with its place and estimated wait; someone else's (or none) is not found. */
export async function getEntry(db: Db, id: number, actor: QueueActor, now = clock.now()): Promise<QueueEntryJson> {
  const [e] = await db
    .select(entryColumns)
    .from(queueEntries)
    .innerJoin(stores, eq(stores.id, queueEntries.storeId))
    .where(and(eq(queueEntries.id, id), ownedBy(actor)));
  if (!e) throw notFound();
  let ahead: number[] = [];
  let estimate: QueueEntryJson['estimate'] = null;
  if (e.state === 'waiting') {
    // The parties before this one, called or waiting, in the order they joined (ties by id).
    const before = await db
      .select({ party: queueEntries.partySize })
      .from(queueEntries)
      .where(
        and(
          eq(queueEntries.storeId, e.storeId),
          inArray(queueEntries.state, [...QUEUE_ACTIVE]),
          or(lt(queueEntries.joinedAt, e.joinedAt), and(eq(queueEntries.joinedAt, e.joinedAt), lt(queueEntries.id, e.id))),
        ),
      )
      .orderBy(asc(queueEntries.joinedAt), asc(queueEntries.id));
    ahead = before.map((b) => b.party);
    const state = await storeState(db, e.storeId, now);
    estimate = state ? estimateWait(state, e.partySize, ahead, now) : null;
  }
  const iso = (d: Date | null) => (d ? toTokyoIso(d) : null);
  return {
    id: e.id,
    store_id: e.storeId,
    store_name: e.storeName,
    party_size: e.partySize,
    name: e.name,
    state: e.state,
    ahead: ahead.length,
    estimate,
    joined_at: toTokyoIso(e.joinedAt),
    called_at: iso(e.calledAt),
    claim_deadline: iso(e.claimDeadline),
    seated_at: iso(e.seatedAt),
    ended_at: iso(e.noShowAt ?? e.canceledAt ?? e.expiredAt),
    booking_id: e.bookingId,
  };
}

/** The column each state stamps with its time. */
const STAMP = {
  called: 'calledAt',
  seated: 'seatedAt',
  no_show: 'noShowAt',
  canceled: 'canceledAt',
  expired: 'expiredAt',
} as const satisfies Partial<Record<QueueState, keyof typeof queueEntries.$inferInsert>>;

const AUDIT: Record<keyof typeof STAMP, AuditAction> = {
  called: 'queue_call',
  seated: 'queue_seat',
  no_show: 'queue_no_show',
  canceled: 'queue_cancel',
  expired: 'queue_expire',
};

/**
 * Moves one entry to `to` inside `tx`, if the table allows it from where it stands (409
 * `queue_state` if not), with its time and an audit line. `where` narrows which entry may be moved
 * (the owner's, or the staff's store's): anything else is not found.
 */
export async function moveEntry(
  tx: Q,
  id: number,
  to: keyof typeof STAMP,
  who: { userId: number | null; email: string },
  where: ReturnType<typeof and>,
  now: Date,
  extra: Partial<typeof queueEntries.$inferInsert> = {},
): Promise<{ storeId: number; from: QueueState }> {
  const [e] = await tx
    .select({ storeId: queueEntries.storeId, state: queueEntries.state })
    .from(queueEntries)
    .where(and(eq(queueEntries.id, id), where))
    .for('update');
  if (!e) throw notFound();
  if (!canMove(e.state, to)) throw stateError();
  await tx
    .update(queueEntries)
    .set({ state: to, [STAMP[to]]: now, ...extra })
    .where(eq(queueEntries.id, id));
  await audit(tx, who, { action: AUDIT[to], storeId: e.storeId, targetId: id, before: { state: e.state }, after: { state: to, at: toTokyoIso(now) } });
  // An ended entry has nothing more to tell: the devices that followed it stop (pushes waiting go with them).
  if (!isActive(to)) await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.queueEntryId, id));
  return { storeId: e.storeId, from: e.state };
}

const isActive = (state: QueueState) => (QUEUE_ACTIVE as readonly QueueState[]).includes(state);

/**
 * This device follows a guest's entry (from the entry's page and its secret link): the call reaches
 * it by push, and it stops when the entry ends. Someone else's entry, or an account's, is not
 * found; an entry already ended is 409 `queue_state`.
 */
export async function followEntry(db: Db, t: T, id: number, actor: QueueActor, input: PushSubscriptionInput, locale: string): Promise<PushSubscriptionJson> {
  // A guest's entry only: an account's call already reaches the account's devices, and this browser's
  // subscription is one (the newest owner wins), so it must not be taken from the account.
  const state = async () =>
    (
      await db
        .select({ state: queueEntries.state })
        .from(queueEntries)
        .where(and(eq(queueEntries.id, id), isNull(queueEntries.userId), ownedBy(actor)))
    )[0]?.state;
  const before = await state();
  if (!before) throw notFound();
  if (!isActive(before)) throw stateError();
  const saved = await subscribe(db, t, { kind: 'queueEntry', entryId: id }, input, locale);
  // Ended while this was saved: moveEntry's clean-up ran before it, so it is undone here.
  const after = await state();
  if (!after || !isActive(after)) {
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.queueEntryId, id));
    throw stateError();
  }
  return saved;
}

/** The diner leaves the queue (waiting or called): the entry is CANCELED; again is 409. */
export async function leaveQueue(db: Db, id: number, actor: QueueActor, now = clock.now()): Promise<QueueEntryJson> {
  const who = { userId: actor.userId, email: actor.email ?? '' };
  const { storeId } = await db.transaction((tx) => moveEntry(tx, id, 'canceled', who, ownedBy(actor), now));
  await publishAvailabilityChange(db, [storeId]);
  return getEntry(db, id, actor, now);
}

/** How many parties are in the store's queue now (waiting or called). */
export async function waitingCount(db: Db, storeId: number): Promise<number> {
  const [{ n }] = (await db
    .select({ n: count() })
    .from(queueEntries)
    .where(and(eq(queueEntries.storeId, storeId), inArray(queueEntries.state, [...QUEUE_ACTIVE])))) as [{ n: number }];
  return Number(n);
}
