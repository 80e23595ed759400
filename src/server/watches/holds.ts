/**
 * Claimable 空席通知: a watched start that frees is offered to the watchers one at a time, in the
 * order they asked, each with the table held for them alone for WATCH_HOLD_MINUTES. A hold is a row
 * (`watch_holds`) that the availability index and the booking service count as taken until its
 * deadline, so it is out of the listing and nobody else's booking gets the table; past the deadline
 * it is free again by itself, and the expiry job (any instance, any number of them) marks it and
 * announces the store's change, which offers the start to the next watcher. Claiming makes the
 * watcher's booking through the one booking service, and marks the hold claimed in the same
 * transaction.
 *
 * Every instance hears every change, so several may try to offer the same start: each offer is
 * decided under the store's row lock on fresh data (the hold just made by another instance takes the
 * table), and a watch is offered one start once (unique watch, store, start). One diner holds at
 * most one open offer at a time.
 *
 * One module: offering, expiring and claiming a hold are one state machine under the store's row
 * lock; split, the lock order that keeps two instances from offering one table twice would be
 * spread over files.
 */
import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { stores, users, watchHolds, watches } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { hashToken, newToken } from '../sessions';
import { publicOrigin } from '../config';
import { mailQueued, queueMails, type OutgoingMail } from '../mail/outbox';
import { pushQueued, queuePushes } from '../push/service';
import { publishAvailabilityChange } from '../events';
import { createBooking, type HoldClaim } from '../bookings/create';
import { lockAndLoad, pickTable, Refused, stayEnd } from '../bookings/rules';
import type { Busy } from '../availability';
import { refusalError, type BookingContext } from '../bookings/http';
import { sendBookingMail } from '../bookings/mail';
import type { Actor, BookingView } from '../bookings/view';
import { formatTime, formatWhen, MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import { bookingPaths } from '../../lib/contract/paths';
import { WATCH_HOLD_MINUTES, watchHoldPaths, type WatchAlert, type WatchHoldClaimInput, type WatchHoldJson } from '../../lib/contract/watches';
import { announceHoldEverywhere, ownerKey } from './alerts';
import { watchTranslator } from './translate';
import type { Owner } from './owner';
import { clock } from '../clock';
import { deviceHash, withinBookingLimits, type BookingSource } from '../bookingLimits';

type HoldRow = typeof watchHolds.$inferSelect;

/** A start offered to a watcher, as the page that made the offer tells its owner. */
export interface Offered {
  owner: string | null;
  alert: WatchAlert;
}

/**
 * Offers each freed start to the first watchers (by the order they asked) who have not been offered
 * it and hold no other offer, one table each while tables fit; queues their mails. Returns the
 * offers made here (for this instance's open pages).
 */
export async function offerFreed(
  db: Db,
  storeId: number,
  found: readonly { watch: { id: number }; starts: number[] }[],
  now = clock.now(),
  origin = publicOrigin(),
): Promise<Offered[]> {
  const starts = [...new Set(found.flatMap((f) => f.starts))].filter((s) => s > now.getTime()).sort((a, b) => a - b);
  const offered: Offered[] = [];
  for (const s of starts) {
    const ids = found.filter((f) => f.starts.includes(s)).map((f) => f.watch.id);
    const made = await db.transaction(async (tx) => {
      const start = new Date(s);
      const state = await lockAndLoad(tx, storeId, start, { now });
      if (!state) return [];
      const candidates = await tx
        .select({
          id: watches.id,
          userId: watches.userId,
          email: watches.email,
          locale: watches.locale,
          partySize: watches.partySize,
          deviceTokenHash: watches.deviceTokenHash,
          storeName: stores.name,
        })
        .from(watches)
        .innerJoin(stores, eq(stores.id, storeId))
        .where(and(inArray(watches.id, ids), sql`${watches.cancelledAt} is null`, sql`${watches.confirmedAt} is not null`, gt(watches.endsAt, now)))
        .orderBy(watches.id);
      if (!candidates.length) return [];
      const before = await tx
        .select({ watchId: watchHolds.watchId })
        .from(watchHolds)
        .where(
          and(
            inArray(
              watchHolds.watchId,
              candidates.map((c) => c.id),
            ),
            eq(watchHolds.storeId, storeId),
            eq(watchHolds.startsAt, start),
          ),
        );
      const already = new Set(before.map((b) => b.watchId));
      const out: { hold: HoldRow; c: (typeof candidates)[number]; token: string }[] = [];
      for (const c of candidates) {
        if (already.has(c.id)) continue;
        const end = stayEnd(state, start, c.partySize);
        let tableId: number;
        try {
          tableId = pickTable(state, start, end, c.partySize, null).id;
        } catch (err) {
          if (err instanceof Refused) continue;
          throw err;
        }
        // After the table (in memory): once the freed tables are taken, the rest cost no query.
        if (await holdsOpenOffer(tx, c, now)) continue;
        const token = newToken();
        const [hold] = await tx
          .insert(watchHolds)
          .values({
            watchId: c.id,
            storeId,
            tableId,
            partySize: c.partySize,
            startsAt: start,
            endsAt: end,
            expiresAt: new Date(now.getTime() + WATCH_HOLD_MINUTES * MINUTE_MS),
            tokenHash: hashToken(token),
            createdAt: now,
          })
          .returning();
        (state.busy as Busy[]).push({ tableId, start, end });
        out.push({ hold: hold!, c, token });
      }
      await queueMails(
        tx,
        out.map(({ hold, c, token }) => holdMail(hold, c, token, origin)),
      );
      // The offer on the watcher's phones that said yes too: the store, the time and the deadline, nothing of the diner.
      for (const { hold, c } of out) {
        await queuePushes(
          tx,
          c.userId !== null ? { userIds: [c.userId] } : { deviceTokenHashes: c.deviceTokenHash ? [c.deviceTokenHash] : [] },
          'watch_hold',
          (locale) => {
            const t = watchTranslator(locale);
            return {
              title: t('push.hold.title', { store: c.storeName }),
              body: t('push.hold.body', { time: formatWhen(hold.startsAt, locale, t), deadline: formatTime(hold.expiresAt, t) }),
              url: watchHoldPaths.page(hold.id),
              tag: `watch-hold-${hold.id}`,
            };
          },
        );
      }
      return out;
    });
    for (const { hold, c } of made) offered.push({ owner: ownerKey(c), alert: alertOf(hold, c.storeName) });
  }
  if (offered.length) {
    // The held tables leave the listing; the mails go.
    await publishAvailabilityChange(db, [storeId]);
    mailQueued(db);
    pushQueued(db);
    for (const o of offered) await announceHoldEverywhere(db, o.owner, o.alert);
  }
  return offered;
}

/** Whether the watch's diner (by account, else by address) holds an offer not yet past its deadline. */
async function holdsOpenOffer(tx: Q, c: { userId: number | null; email: string }, now: Date): Promise<boolean> {
  const sameAddress = sql`lower(${watches.email}) = lower(${c.email})`;
  const rows = await tx
    .select({ id: watchHolds.id })
    .from(watchHolds)
    .innerJoin(watches, eq(watches.id, watchHolds.watchId))
    .where(and(eq(watchHolds.state, 'offered'), gt(watchHolds.expiresAt, now), c.userId !== null ? or(eq(watches.userId, c.userId), sameAddress) : sameAddress))
    .limit(1);
  return rows.length > 0;
}

function alertOf(hold: HoldRow, storeName: string): WatchAlert {
  return {
    watch_id: hold.watchId,
    store_id: hold.storeId,
    store_name: storeName,
    party_size: hold.partySize,
    start: toTokyoIso(hold.startsAt),
    href: watchHoldPaths.page(hold.id),
    hold_id: hold.id,
    deadline: toTokyoIso(hold.expiresAt),
  };
}

function holdMail(hold: HoldRow, c: { email: string; locale: string; partySize: number; storeName: string }, token: string, origin: string): OutgoingMail {
  const t = watchTranslator(c.locale);
  const lines = [
    t('watch.mail.hold.intro', { store: c.storeName, party: t('booking.partyCount', { count: c.partySize }) }),
    '',
    formatWhen(hold.startsAt, c.locale, t),
    '',
    t('watch.mail.hold.deadline', { time: formatTime(hold.expiresAt, t) }),
    origin + watchHoldPaths.link(hold.id, token),
  ];
  return {
    to: c.email,
    subject: t('watch.mail.hold.subject', { store: c.storeName, time: formatTime(hold.startsAt, t) }),
    text: lines.join('\n'),
    locale: c.locale,
    kind: 'watch_hold',
  };
}

/**
 * Marks the holds past their deadline expired (each by one instance, whichever gets there first)
 * and announces their stores' change: their tables are listed again, and their starts are offered
 * to the next watchers.
 */
export async function expireHolds(db: Db, now = clock.now()): Promise<number> {
  const rows = await db
    .update(watchHolds)
    .set({ state: 'expired' })
    .where(and(eq(watchHolds.state, 'offered'), lte(watchHolds.expiresAt, now)))
    .returning({ storeId: watchHolds.storeId, startsAt: watchHolds.startsAt });
  const storeIds = [...new Set(rows.map((r) => r.storeId))];
  if (storeIds.length) await publishAvailabilityChange(db, storeIds);
  if (rows.length) for (const listener of expiryListeners) listener(db, rows, now);
  return rows.length;
}

/** A start whose hold has just been marked expired. */
export interface ExpiredHold {
  storeId: number;
  startsAt: Date;
}

type ExpiryListener = (db: Db, expired: readonly ExpiredHold[], now: Date) => void;
const expiryListeners = new Set<ExpiryListener>();

/**
 * Hears the holds the expiry job marks (src/server/watches/matcher.ts offers their starts to the
 * next watchers). The store's change alone does not always do it: an index read after the deadline
 * (an instance started again, or one that joined) already counts the table free, so the start is
 * free before the change and after it, and nothing looks freed.
 */
export function onHoldsExpired(listener: ExpiryListener): void {
  expiryListeners.add(listener);
}

/** Who asks about a hold: the watch's owner (account or device), or the mailed link's token. */
export interface HoldAsker {
  owner: Owner | null;
  token: string | null;
}

const askedBy = (asker: HoldAsker) => {
  const conds = [];
  if (asker.owner?.kind === 'user') conds.push(eq(watches.userId, asker.owner.userId));
  if (asker.owner?.kind === 'device') conds.push(and(sql`${watches.userId} is null`, eq(watches.deviceTokenHash, hashToken(asker.owner.token))));
  if (asker.token) conds.push(eq(watchHolds.tokenHash, hashToken(asker.token)));
  return conds.length ? or(...conds) : sql`false`;
};

/** The asker's hold (someone else's is not found), as its JSON; an offer past its deadline reads expired. */
export async function getHold(db: Db, id: number, asker: HoldAsker, now = clock.now()): Promise<WatchHoldJson> {
  const [row] = await db
    .select({ hold: watchHolds, storeName: stores.name })
    .from(watchHolds)
    .innerJoin(watches, eq(watches.id, watchHolds.watchId))
    .innerJoin(stores, eq(stores.id, watchHolds.storeId))
    .where(and(eq(watchHolds.id, id), askedBy(asker)));
  if (!row) throw notFound();
  return holdJson(row.hold, row.storeName, now);
}

function holdJson(h: HoldRow, storeName: string, now: Date): WatchHoldJson {
  return {
    id: h.id,
    watch_id: h.watchId,
    store_id: h.storeId,
    store_name: storeName,
    party_size: h.partySize,
    start: toTokyoIso(h.startsAt),
    state: h.state === 'offered' && h.expiresAt <= now ? 'expired' : h.state,
    deadline: toTokyoIso(h.expiresAt),
    booking_id: h.bookingId,
  };
}

export interface HoldClaimed {
  hold: WatchHoldJson;
  booking: BookingView;
  editToken: string | null;
  bookingUrl: string;
}

const holdState = () => new ApiError(409, 'hold_state', 'watch.error.holdGone');

/** Where a claim comes from, as the booking limits count it: the client's address and its device id (as its cookie holds it). */
export interface ClaimClient {
  address: string;
  device: string;
}

/**
 * The watcher books the held start: a booking by the one booking service at the held table (its
 * own hold set aside), the hold marked claimed with it in the same transaction. Past the deadline,
 * or claimed already (a second tap, a race), 409 `hold_state`; exactly one of two claims wins.
 * A claim is a booking, so it counts against the same limits as booking directly (a hold must not
 * be a way past them): a diner at their limit gets the same 429, and the hold stays theirs, still
 * offered, until its deadline.
 */
export async function claimHold(
  db: Db,
  id: number,
  asker: HoldAsker,
  contact: WatchHoldClaimInput,
  bookingCtx: BookingContext,
  client: ClaimClient,
): Promise<HoldClaimed> {
  const ctx: BookingContext = { ...bookingCtx, device: deviceHash(client.device) };
  const now = ctx.now ?? clock.now();
  const [row] = await db
    .select({ hold: watchHolds, storeName: stores.name, watch: watches, userName: users.name, userEmail: users.email })
    .from(watchHolds)
    .innerJoin(watches, eq(watches.id, watchHolds.watchId))
    .innerJoin(stores, eq(stores.id, watchHolds.storeId))
    .leftJoin(users, eq(users.id, watches.userId))
    .where(and(eq(watchHolds.id, id), askedBy(asker)));
  if (!row) throw notFound();
  const { hold, watch } = row;
  if (hold.state !== 'offered' || hold.expiresAt <= now) throw holdState();
  const claim: HoldClaim = {
    holdId: hold.id,
    tableId: hold.tableId,
    async lock(tx) {
      const [h] = await tx.select({ state: watchHolds.state, expiresAt: watchHolds.expiresAt }).from(watchHolds).where(eq(watchHolds.id, id)).for('update');
      if (h?.state !== 'offered' || h.expiresAt <= now) throw holdState();
    },
    async record(tx, bookingId) {
      await tx.update(watchHolds).set({ state: 'claimed', bookingId }).where(eq(watchHolds.id, id));
    },
  };
  const account = watch.userId !== null && row.userEmail !== null && row.userName !== null;
  if (!account) {
    // A guest's booking needs the contact details a guest booking takes; the address is the watch's.
    const labels = { name: 'booking.guest.name', name_kana: 'booking.guest.nameKana', phone: 'booking.guest.phone' } as const;
    const missing = (Object.keys(labels) as (keyof typeof labels)[]).filter((f) => !contact[f]);
    if (missing.length)
      throw new ApiError(400, 'validation_failed', 'validation.failed', {
        fields: Object.fromEntries(missing.map((f) => [f, ctx.t('validation.required', { field: ctx.t(labels[f]) })])),
      });
  }
  const actor: Actor = account ? { kind: 'user', userId: watch.userId!, email: row.userEmail!, name: row.userName! } : { kind: 'guest', token: '' };
  const start = toTokyoIso(hold.startsAt);
  const input = account
    ? { store_id: hold.storeId, start, party_size: hold.partySize }
    : {
        store_id: hold.storeId,
        start,
        party_size: hold.partySize,
        name: contact.name!,
        name_kana: contact.name_kana!,
        phone: contact.phone!,
        email: watch.email,
      };
  const source: BookingSource = account
    ? { kind: 'user', userId: watch.userId! }
    : { kind: 'guest', address: client.address, email: watch.email, phone: contact.phone!, device: client.device };
  const outcome = await withinBookingLimits(db, source, async () => {
    const made = await createBooking(db, input, actor, now, { device: ctx.device, claim });
    if (made.kind !== 'booked') {
      // The hold was lost meanwhile (its deadline passed within the transaction), or the diner's rules refuse it.
      if (made.kind === 'slot_taken' || made.kind === 'bad_start') throw holdState();
      throw refusalError(ctx.t, made);
    }
    return made;
  });
  const { booking } = outcome;
  const editToken = outcome.editToken ?? null;
  const to = account ? row.userEmail : booking.guest?.email;
  if (to) await sendBookingMail(db, to, booking, 'created', ctx, editToken ?? undefined);
  const [after] = await db.select().from(watchHolds).where(eq(watchHolds.id, id));
  return {
    hold: holdJson(after!, row.storeName, now),
    booking,
    editToken,
    bookingUrl: editToken ? bookingPaths.guestEdit(booking.storeId, booking.id, editToken) : bookingPaths.edit(booking.storeId, booking.id),
  };
}
