/**
 * Booking a table. One transaction locks the store's row, checks the start and the party, picks the
 * smallest free fitting table and inserts; K simultaneous requests for K free tables give exactly
 * K bookings. A guest's contact details go in with it in their stored form (plain phone digits; the
 * contract's kana field already gave full-width katakana), with the hash of a fresh edit token.
 */
import type { Db } from '../db/types';
import { bookings } from '../db/schema';
import { hashToken, newToken } from '../sessions';
import { normalisePhone } from '../../lib/validation';
import type { CreateInput, GuestInput } from '../../lib/contract/booking';
import { holdOf, type Booked, type Refusal } from './outcome';
import { checkParty, checkStart, lockAndLoad, newBookingCode, pgError, pickTable, Refused, refusal, refusalOf, stayEnd, afterCommit } from './rules';
import { findBooking, type Actor } from './view';
import { horizonProblem } from '../availability';
import { clock } from '../clock';

/** A user books with `CreateInput`; a guest (actor `{ kind: 'guest', token: '' }`) with `GuestInput`. */
export async function createBooking(db: Db, input: CreateInput | GuestInput, actor: Actor, now = clock.now()): Promise<Booked | Refusal> {
  const start = new Date(input.start);
  const outside = horizonProblem(start, now);
  if (outside) return { kind: 'bad_start', problem: outside };
  const guest = actor.kind === 'guest' ? (input as GuestInput) : null;
  const editToken = guest ? newToken() : undefined;
  const contact = guest
    ? { guestName: guest.name, guestNameKana: guest.name_kana, guestPhone: normalisePhone(guest.phone)!, guestEmail: guest.email, guestTokenHash: hashToken(editToken!) }
    : {};

  let id: number | undefined;
  for (let attempt = 0; id === undefined; attempt++) {
    try {
      id = await db.transaction(async (tx) => {
        const state = await lockAndLoad(tx, input.store_id, start);
        if (!state) throw new Refused({ kind: 'store_not_found' });
        checkStart(state, start, now, input.party_size);
        checkParty(state, input.party_size);
        const end = stayEnd(state, start, input.party_size);
        const table = pickTable(state, start, end, input.party_size, input.seat_preference);
        const [row] = await tx
          .insert(bookings)
          .values({
            code: newBookingCode(),
            storeId: input.store_id,
            tableId: table.id,
            userId: actor.kind === 'user' ? actor.userId : null,
            partySize: input.party_size,
            startsAt: start,
            endsAt: end,
            seatPreference: input.seat_preference ?? null,
            note: input.note?.trim() ?? '',
            ...contact,
          })
          .returning({ id: bookings.id });
        return row!.id;
      });
    } catch (err) {
      const pg = pgError(err);
      // Two new codes alike (one in 10^9): draw again.
      if (pg.code === '23505' && pg.constraint?.includes('code') && attempt < 5) continue;
      const refused = refusalOf(err);
      if (refused) return refusal(db, refused, input.store_id, start, input.party_size, now, input.seat_preference);
      throw err;
    }
  }

  const booking = (await findBooking(db, id, guest ? { kind: 'guest', token: editToken! } : actor, now))!;
  const change = { storeId: booking.storeId, released: null, taken: holdOf(booking) };
  await afterCommit(db, change);
  return { kind: 'booked', booking, change, editToken };
}
