/**
 * Changing and cancelling a booking, until its start. A change is one UPDATE under the store's
 * lock: the old table stays held until the new one is secured, in the same statement.
 */
import { and, eq, gt } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings } from '../db/schema';
import { horizonProblem, type StoreState } from '../availability';
import type { EditInput } from '../../lib/contract/booking';
import type { TableKind } from '../../lib/contract/enums';
import { holdOf, type Cancelled, type Changed, type Refusal } from './outcome';
import { afterCommit, checkParty, checkStart, lockAndLoad, pickTable, Refused, refusal, refusalOf, stayEnd } from './rules';
import { findBooking, type Actor, type BookingView } from './view';
import { checkDuplicate } from './create';
import { clock } from '../clock';
import { changeNeedsStore, feeBasisAfter } from '../../lib/contract/fee';

/**
 * What staff add to a change made at the store: the table they chose, if any, and their audit line,
 * written in the change's transaction with the booking before and after.
 */
export interface StaffChange {
  tableId?: number;
  record(tx: Q, before: BookingView, after: { tableId: number; start: Date; end: Date; partySize: number }): Promise<void>;
}

export async function editBooking(db: Db, id: number, input: EditInput, actor: Actor, now = clock.now(), staff?: StaffChange): Promise<Changed | Refusal> {
  let tried: { storeId: number; start: Date; party: number; kind: TableKind | null } | undefined;
  const outside = input.start ? horizonProblem(new Date(input.start), now) : null;
  if (outside) return { kind: 'bad_start', problem: outside };
  try {
    const before = await db.transaction(async (tx) => {
      const seen = await findBooking(tx, id, actor, now);
      if (!seen) throw new Refused({ kind: 'not_found' });
      const start = input.start ? new Date(input.start) : seen.start;
      const state = await lockAndLoad(tx, seen.storeId, start, { now });
      // Read again under the store lock: a concurrent change or cancellation has committed by now.
      const current = await findBooking(tx, id, actor, now);
      if (!state || !current) throw new Refused({ kind: 'not_found' });
      if (current.status !== 'confirmed' || current.start.getTime() <= now.getTime()) throw new Refused({ kind: 'not_changeable' });
      const party = input.party_size ?? current.partySize;
      const preference = input.seat_preference === undefined ? current.seatPreference : input.seat_preference;
      // Once the fee is due, what is held stays held: moving it or shrinking it is the store's to agree,
      // so a change the store itself makes (staff) is that agreement.
      const held = { start: current.start, party: current.partySize };
      if (!staff && changeNeedsStore(current.feePolicy, held, { start, party }, now, current.feeBasis))
        throw new Refused({ kind: 'needs_store', phone: current.storePhone });
      // What the fee is reckoned from after this change: the store's change leaves the diner's fee where it stood.
      const basis = feeBasisAfter(current.feePolicy, { held, basis: current.feeBasis, wanted: { start, party }, now, by: staff ? 'store' : 'diner' });
      const ownBasis = basis.start.getTime() === start.getTime() && basis.party === party;
      tried = { storeId: current.storeId, start, party, kind: preference };
      // Another party size may have another turn time: its stay must fit the hours too.
      if (start.getTime() !== current.start.getTime() || party !== current.partySize) checkStart(state, start, now, party);
      checkParty(state, party, !!staff);
      // This booking's own hold must not count against it.
      const busy = state.busy.filter((b) => !(b.tableId === current.tableId && b.start.getTime() === current.start.getTime()));
      const freeState: StoreState = { ...state, busy };
      const end = stayEnd(state, start, party);
      // A diner's move must not make the second overlapping table a new booking could not
      // (利用規約 第4条); the store moving a booking is its own decision.
      if (!staff && (start.getTime() !== current.start.getTime() || end.getTime() !== current.end.getTime())) {
        const [diner] = await tx
          .select({ userId: bookings.userId, phone: bookings.guestPhone, email: bookings.guestEmail, device: bookings.deviceHash })
          .from(bookings)
          .where(eq(bookings.id, id));
        await checkDuplicate(tx, current.storeId, start, end, diner!, id);
      }
      const table = pickTable(freeState, start, end, party, preference, current.tableId, staff && { only: staff.tableId });
      await tx
        .update(bookings)
        .set({
          tableId: table.id,
          startsAt: start,
          endsAt: end,
          partySize: party,
          seatPreference: preference ?? null,
          feeStartsAt: ownBasis ? null : basis.start,
          feePartySize: ownBasis ? null : basis.party,
          ...(input.note !== undefined ? { note: input.note.trim() } : {}),
          updatedAt: now,
        })
        .where(eq(bookings.id, id));
      await staff?.record(tx, current, { tableId: table.id, start, end, partySize: party });
      return current;
    });
    const booking = (await findBooking(db, id, actor, now))!;
    const change = { storeId: booking.storeId, released: holdOf(before), taken: holdOf(booking) };
    await afterCommit(db, change);
    return { kind: 'changed', booking, change };
  } catch (err) {
    const refused = refusalOf(err);
    if (!refused) throw err;
    return tried ? refusal(db, refused, tried.storeId, tried.start, tried.party, now, tried.kind) : refused;
  }
}

/** Cancels until the start time; cancelling twice is harmless. */
export async function cancelBooking(db: Db, id: number, actor: Actor, now = clock.now()): Promise<Cancelled | Refusal> {
  const current = await findBooking(db, id, actor, now);
  if (!current) return { kind: 'not_found' };
  if (current.status === 'cancelled') return { kind: 'cancelled', booking: current, change: null };
  if (current.start.getTime() <= now.getTime()) return { kind: 'not_cancellable' };
  const updated = await db
    .update(bookings)
    .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
    .where(and(eq(bookings.id, id), eq(bookings.status, 'confirmed'), gt(bookings.startsAt, now)))
    .returning({ id: bookings.id, revision: bookings.revision });
  if (!updated.length) {
    // Someone else (another tab) cancelled it or it started meanwhile: answer as it now is.
    const latest = await findBooking(db, id, actor, now);
    if (!latest) return { kind: 'not_found' };
    return latest.status === 'cancelled' ? { kind: 'cancelled', booking: latest, change: null } : { kind: 'not_cancellable' };
  }
  const change = { storeId: current.storeId, released: holdOf(current), taken: null };
  await afterCommit(db, change);
  // The revision as the cancellation left it: the calendar's CANCEL must outrank the last REQUEST.
  return { kind: 'cancelled', booking: { ...current, status: 'cancelled', cancelledAt: now, revision: updated[0]!.revision }, change };
}
