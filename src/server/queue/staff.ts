/**
 * The 順番待ち from the store's side: the parties waiting or called, in the order they joined;
 * calling one (its claim window, the store's setting, starts now), seating it or marking it not
 * come. Each is a move of the one state table (src/lib/contract/queue.ts) through `moveEntry`,
 * audited; another store's entry is not found. A call left unconfirmed past its deadline expires by
 * itself (`expireOverdueCalls`, run by every instance: the row lock and the state make one of them
 * do each), and the next party can then be called.
 */
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { queueEntries, stores } from '../db/schema';
import { notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import { QUEUE_ACTIVE, queuePaths, STAFF_QUEUE_ACTIONS, type StaffQueueAction, type StoreQueueEntryJson } from '../../lib/contract/queue';
import { formatTime, MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import { storeOf, type StaffScope } from '../staff/access';
import { moveEntry } from './service';
import { hashToken, newToken } from '../sessions';
import { publicOrigin } from '../config';
import { mailQueued, queueMail } from '../mail/outbox';
import { watchTranslator } from '../watches/translate';
import { clock } from '../clock';
import { pushQueued, queuePushes } from '../push/service';

/** The audit's name for the expiry nobody tapped. */
export const QUEUE_EXPIRY_ACTOR = 'queue-expiry';

/** The store's queue now: waiting and called parties, first come first. */
export async function listStoreQueue(
  db: Db,
  scope: StaffScope,
  storeId?: number,
): Promise<{ store_id: number; claim_minutes: number; items: StoreQueueEntryJson[] }> {
  const id = storeOf(scope, storeId);
  const [store] = await db.select({ claim: stores.queueClaimMinutes }).from(stores).where(eq(stores.id, id));
  if (!store) throw notFound();
  const rows = await db
    .select()
    .from(queueEntries)
    .where(and(eq(queueEntries.storeId, id), inArray(queueEntries.state, [...QUEUE_ACTIVE])))
    .orderBy(asc(queueEntries.joinedAt), asc(queueEntries.id));
  return { store_id: id, claim_minutes: store.claim, items: rows.map(storeEntryJson) };
}

function storeEntryJson(e: typeof queueEntries.$inferSelect): StoreQueueEntryJson {
  return {
    id: e.id,
    party_size: e.partySize,
    name: e.name,
    phone: e.phone,
    email: e.email,
    state: e.state,
    joined_at: toTokyoIso(e.joinedAt),
    called_at: e.calledAt ? toTokyoIso(e.calledAt) : null,
    claim_deadline: e.claimDeadline ? toTokyoIso(e.claimDeadline) : null,
  };
}

/**
 * Calls, seats or marks not come one entry of the staff's stores; a move the state table does not
 * allow is 409 `queue_state`. A call sets the claim deadline from the store's claim window.
 */
export async function actOnEntry(db: Db, scope: StaffScope, id: number, action: StaffQueueAction, now = clock.now()): Promise<StoreQueueEntryJson> {
  const to = STAFF_QUEUE_ACTIONS[action];
  const { storeId } = await db.transaction(async (tx) => {
    let extra = {};
    if (to === 'called') {
      const [store] = await tx
        .select({ claim: stores.queueClaimMinutes })
        .from(stores)
        .innerJoin(queueEntries, eq(queueEntries.storeId, stores.id))
        .where(and(eq(queueEntries.id, id), inArray(queueEntries.storeId, [...scope.storeIds])));
      if (!store) throw notFound();
      extra = { claimDeadline: new Date(now.getTime() + store.claim * MINUTE_MS) };
    }
    const moved = await moveEntry(tx, id, to, scope, inArray(queueEntries.storeId, [...scope.storeIds]), now, extra);
    if (to === 'called') {
      await mailCall(tx, id);
      await pushCall(tx, id);
    }
    return moved;
  });
  if (to === 'called') {
    mailQueued(db);
    pushQueued(db);
  }
  // The diner's page and every door tablet redraw.
  await publishAvailabilityChange(db, [storeId]);
  const [row] = await db.select().from(queueEntries).where(eq(queueEntries.id, id));
  return storeEntryJson(row!);
}

/**
 * Mails a called party that left an address, in the language it joined in: the store, the party,
 * the deadline and the link to its page. A guest's link opens the entry on any device by a token
 * of its own (the join's is kept only as a hash), written with the call in one transaction.
 */
async function mailCall(tx: Q, id: number): Promise<void> {
  const [e] = await tx
    .select({
      email: queueEntries.email,
      locale: queueEntries.locale,
      name: queueEntries.name,
      party: queueEntries.partySize,
      userId: queueEntries.userId,
      deadline: queueEntries.claimDeadline,
      store: stores.name,
    })
    .from(queueEntries)
    .innerJoin(stores, eq(stores.id, queueEntries.storeId))
    .where(eq(queueEntries.id, id));
  if (!e?.email || !e.deadline) return;
  let link = publicOrigin() + queuePaths.page(id);
  if (e.userId === null) {
    const token = newToken();
    await tx
      .update(queueEntries)
      .set({ mailTokenHash: hashToken(token) })
      .where(eq(queueEntries.id, id));
    link = publicOrigin() + queuePaths.link(id, token);
  }
  const t = watchTranslator(e.locale);
  const deadline = formatTime(e.deadline, t);
  const text = [
    t('queue.mail.called.intro', { name: e.name, store: e.store, party: t('booking.partyCount', { count: e.party }) }),
    '',
    t('queue.mail.called.deadline', { time: deadline }),
    '',
    link,
    '',
    t('queue.mail.called.after'),
  ].join('\n');
  await queueMail(tx, {
    to: e.email,
    subject: t('queue.mail.called.subject', { store: e.store, time: deadline }),
    text,
    locale: e.locale,
    kind: 'queue_called',
  });
}

/**
 * Tells a called party's phones that said yes (an account's, and those a guest subscribed from the
 * entry's page): the store and the deadline, its page on a tap.
 */
async function pushCall(tx: Q, id: number): Promise<number> {
  const [e] = await tx
    .select({ userId: queueEntries.userId, deadline: queueEntries.claimDeadline, store: stores.name })
    .from(queueEntries)
    .innerJoin(stores, eq(stores.id, queueEntries.storeId))
    .where(eq(queueEntries.id, id));
  if (!e?.deadline) return 0;
  const deadline = e.deadline;
  return queuePushes(tx, { userIds: e.userId === null ? [] : [e.userId], queueEntryIds: [id] }, 'queue_called', (locale) => {
    const t = watchTranslator(locale);
    return {
      title: t('push.queue.title', { store: e.store }),
      body: t('push.queue.body', { time: formatTime(deadline, t) }),
      url: queuePaths.page(id),
      tag: `queue-${id}`,
    };
  });
}

/** Expires the calls whose claim window is over; the number expired. Idempotent and safe on every instance at once. */
export async function expireOverdueCalls(db: Db, now = clock.now()): Promise<number> {
  const due = await db
    .select({ id: queueEntries.id, storeId: queueEntries.storeId })
    .from(queueEntries)
    .where(and(eq(queueEntries.state, 'called'), lte(queueEntries.claimDeadline, now)));
  const stores_: number[] = [];
  for (const e of due) {
    const moved = await db
      .transaction((tx) =>
        moveEntry(
          tx,
          e.id,
          'expired',
          { userId: null, email: QUEUE_EXPIRY_ACTOR },
          and(eq(queueEntries.state, 'called'), lte(queueEntries.claimDeadline, now)),
          now,
        ),
      )
      // Another instance expired it, or the diner confirmed or left meanwhile: nothing to do.
      .catch(() => null);
    if (moved) stores_.push(moved.storeId);
  }
  if (stores_.length) await publishAvailabilityChange(db, [...new Set(stores_)]);
  return stores_.length;
}
