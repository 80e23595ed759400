/**
 * A called party confirms: 「席に向かいます（確定）」. Within the claim window the entry becomes a
 * booking starting now for the party, made by the one booking service (createBooking: the store's
 * lock, the party and duplicate rules, the choice of table and the exclusion constraints), and the
 * entry is SEATED with the booking's id in the same transaction. The entry's row is locked first
 * (then the store's, as the staff's moves take them), so of two claims, or a claim and the staff seating the party, exactly one moves
 * it and the other is 409 `queue_state`. Past the deadline the call expires here, as the job would
 * have, and the claim is 409 `queue_state`.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../db/types';
import { queueEntries, users } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import { createBooking, type SeatNow } from '../bookings/create';
import { refusalError, type BookingContext } from '../bookings/http';
import { sendBookingMail } from '../bookings/mail';
import type { Actor, BookingView } from '../bookings/view';
import { MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import { bookingPaths } from '../../lib/contract/paths';
import type { QueueEntryJson } from '../../lib/contract/queue';
import { getEntry, moveEntry, ownedBy, type QueueActor } from './service';
import { QUEUE_EXPIRY_ACTOR } from './staff';
import { clock } from '../clock';

export interface Claimed {
  entry: QueueEntryJson;
  booking: BookingView;
  /** A guest's new booking's edit token (its link, as the booking mail carries it). */
  editToken: string | null;
  /** The booking's page: an account's, or a guest's opened once by its token. */
  bookingUrl: string;
}

const stateError = () => new ApiError(409, 'queue_state', 'queue.error.state');

/** Confirms the asker's call: a booking now, the entry seated with it; mails the booking's confirmation. */
export async function claimCall(db: Db, id: number, actor: QueueActor, ctx: BookingContext): Promise<Claimed> {
  const now = ctx.now ?? clock.now();
  const [e] = await db
    .select({
      storeId: queueEntries.storeId,
      state: queueEntries.state,
      deadline: queueEntries.claimDeadline,
      party: queueEntries.partySize,
      name: queueEntries.name,
      phone: queueEntries.phone,
      email: queueEntries.email,
      device: queueEntries.deviceHash,
      userId: queueEntries.userId,
      userName: users.name,
      userEmail: users.email,
    })
    .from(queueEntries)
    .leftJoin(users, eq(users.id, queueEntries.userId))
    .where(and(eq(queueEntries.id, id), ownedBy(actor)));
  if (!e) throw notFound();
  if (e.state === 'called' && e.deadline && e.deadline <= now) {
    const expired = await db
      .transaction((tx) =>
        moveEntry(
          tx,
          id,
          'expired',
          { userId: null, email: QUEUE_EXPIRY_ACTOR },
          and(eq(queueEntries.state, 'called'), lte(queueEntries.claimDeadline, now)),
          now,
        ),
      )
      // Expired meanwhile by the job (or seated by the store): the answer is the same.
      .catch(() => null);
    if (expired) await publishAvailabilityChange(db, [expired.storeId]);
    throw stateError();
  }
  if (e.state !== 'called') throw stateError();

  const who = { userId: actor.userId, email: actor.email ?? e.email ?? '' };
  const seat: SeatNow = {
    async lock(tx) {
      const [row] = await tx
        .select({ state: queueEntries.state, deadline: queueEntries.claimDeadline })
        .from(queueEntries)
        .where(eq(queueEntries.id, id))
        .for('update');
      if (row?.state !== 'called' || !row.deadline || row.deadline <= now) throw stateError();
    },
    async record(tx, bookingId) {
      await moveEntry(tx, id, 'seated', who, eq(queueEntries.state, 'called'), now, { bookingId });
    },
  };
  // The stay starts at this minute: the party is on its way.
  const start = toTokyoIso(new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS));
  const account = e.userId !== null && e.userEmail !== null && e.userName !== null;
  const bookingActor: Actor = account ? { kind: 'user', userId: e.userId!, email: e.userEmail!, name: e.userName! } : { kind: 'guest', token: '' };
  const input = account
    ? { store_id: e.storeId, start, party_size: e.party }
    : { store_id: e.storeId, start, party_size: e.party, name: e.name, name_kana: '', phone: e.phone ?? '', email: e.email ?? '' };
  const outcome = await createBooking(db, input, bookingActor, now, { device: e.device ?? undefined, seat });
  if (outcome.kind !== 'booked') {
    // No table for the party after all (a walk-in took it), or the store closes before the stay ends.
    if (outcome.kind === 'slot_taken' || outcome.kind === 'bad_start') throw new ApiError(409, 'no_free_table', 'queue.error.noTable');
    throw refusalError(ctx.t, outcome);
  }
  const { booking } = outcome;
  const editToken = outcome.editToken ?? null;
  const to = account ? e.userEmail : booking.guest?.email;
  if (to) await sendBookingMail(db, to, booking, 'created', ctx, editToken ?? undefined);
  return {
    entry: await getEntry(db, id, actor, now),
    booking,
    editToken,
    bookingUrl: editToken ? bookingPaths.guestEdit(booking.storeId, booking.id, editToken) : bookingPaths.edit(booking.storeId, booking.id),
  };
}
