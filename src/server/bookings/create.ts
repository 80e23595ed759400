/**
 * Booking a table. One transaction locks the store's row, checks the start and the party, picks the
 * smallest free fitting table and inserts; K simultaneous requests for K free tables give exactly
 * K bookings. A guest's contact details go in with it in their stored form (plain phone digits; the
 * contract's kana field already gave full-width katakana), with the hash of a fresh edit token.
 */
import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings } from '../db/schema';
import { hashToken, newToken } from '../sessions';
import { normalisePhone } from '../../lib/validation';
import type { CreateInput, GuestInput } from '../../lib/contract/booking';
import { holdOf, type Booked, type Refusal } from './outcome';
import {
  checkParty,
  checkSeatNow,
  checkStart,
  lockAndLoad,
  newBookingCode,
  pgError,
  pickTable,
  Refused,
  refusal,
  refusalOf,
  stayEnd,
  afterCommit,
} from './rules';
import { findBooking, type Actor } from './view';
import { reminderDue } from './reminders';
import { horizonProblem } from '../availability';
import { clock } from '../clock';

/** Who a booking is by, as 利用規約 第4条 counts a diner: any one of these in common is the same diner. */
export interface Diner {
  userId?: number | null;
  /** Stored normalised (digits). */
  phone?: string | null;
  email?: string | null;
  /** The hash of the device id (src/server/bookingLimits.ts). */
  device?: string | null;
}

/**
 * 利用規約 第4条: one diner, one table at a time at a store. A confirmed booking at the store whose
 * stay overlaps [start, end) by the same account, phone number (stored normalised), e-mail address
 * (any case) or device refuses the new one (`except`: the booking being changed). Run under the
 * store's lock, so two such requests at once are decided one after the other. The refusal links to
 * the first booking only where the asker could open it anyway: its own account's, or one made on the
 * same device (a guest's page opens there with the cookie it was given); a phone number or an
 * address alone must not reveal someone's booking.
 */
export async function checkDuplicate(tx: Q, storeId: number, start: Date, end: Date, diner: Diner, except?: number): Promise<void> {
  const same = [
    diner.userId != null ? eq(bookings.userId, diner.userId) : undefined,
    diner.phone ? eq(bookings.guestPhone, diner.phone) : undefined,
    diner.email ? sql`lower(${bookings.guestEmail}) = lower(${diner.email})` : undefined,
    diner.device ? eq(bookings.deviceHash, diner.device) : undefined,
  ].filter((c) => c !== undefined);
  if (!same.length) return;
  const found = await tx
    .select({ id: bookings.id, userId: bookings.userId, device: bookings.deviceHash })
    .from(bookings)
    .where(
      and(
        eq(bookings.storeId, storeId),
        eq(bookings.kind, 'booking'),
        eq(bookings.status, 'confirmed'),
        lt(bookings.startsAt, end),
        gt(bookings.endsAt, start),
        or(...same),
        except !== undefined ? ne(bookings.id, except) : undefined,
      ),
    )
    .orderBy(bookings.startsAt);
  if (!found.length) return;
  const own = found.find((b) => diner.userId != null && b.userId === diner.userId);
  const sameDevice = found.find((b) => diner.device && b.device === diner.device);
  const first = own ?? sameDevice;
  throw new Refused({ kind: 'duplicate', ...(first ? { first: { id: first.id, storeId, guest: first.userId === null } } : {}) });
}

/**
 * What staff add to a booking they write down (a phone call): the table they chose, if any, and
 * their audit line, written in the booking's transaction with the row as it was inserted.
 */
export interface StaffBooking {
  tableId?: number;
  record(tx: Q, id: number, after: { tableId: number; start: Date; end: Date; partySize: number }): Promise<void>;
}

/**
 * A party seated now from the store's 順番待ち (src/server/queue/claim.ts): the booking starts at
 * the minute it is confirmed, not on a 15-minute mark (the store must be open for the whole stay),
 * and may take a walk-in-only table, as the door's parties do. `lock` runs first, before the
 * store's lock, so a claim that lost its race is refused before anything else is looked at; `record` runs
 * with the new booking's id; both in the booking's transaction, so the booking and the entry's
 * move commit together or not at all.
 */
export interface SeatNow {
  lock(tx: Q): Promise<void>;
  record(tx: Q, id: number): Promise<void>;
}

/**
 * A start held for a watcher, booked by them (src/server/watches/holds.ts): `lock` locks and checks
 * the hold first, the hold is set aside when the store's tables are read (it is the claimer's own)
 * and its table kept, and `record` marks it claimed with the booking's id, in the booking's
 * transaction.
 */
export interface HoldClaim {
  holdId: number;
  tableId: number;
  lock(tx: Q): Promise<void>;
  record(tx: Q, id: number): Promise<void>;
}

/** How a booking is made, beyond who makes it. */
export interface BookingWay {
  staff?: StaffBooking;
  /** The hash of the device a diner books from, kept on the booking and counted as the diner (never a staff tablet's). */
  device?: string;
  seat?: SeatNow;
  claim?: HoldClaim;
  /** The language of the booking's later mails; given, the day-of reminder is set in the same insert (src/server/bookings/reminders.ts). */
  locale?: string;
}

/**
 * A user books with `CreateInput`; a guest (actor `{ kind: 'guest', token: '' }`) with `GuestInput`;
 * staff (actor `staff`) with the diner's contact as a guest's, the e-mail address optional, by
 * the same rules and under the same lock, walk-in-only tables included.
 */
export async function createBooking(
  db: Db,
  input: CreateInput | GuestInput,
  actor: Actor,
  now = clock.now(),
  { staff, device, seat, claim, locale }: BookingWay = {},
): Promise<Booked | Refusal> {
  const start = new Date(input.start);
  const outside = seat ? null : horizonProblem(start, now);
  if (outside) return { kind: 'bad_start', problem: outside };
  const guest = actor.kind !== 'user' ? (input as GuestInput) : null;
  // A phone booking without an address has no link to mail, so no token either.
  const editToken = guest && (actor.kind === 'guest' || guest.email) ? newToken() : undefined;
  const contact = guest
    ? {
        guestName: guest.name,
        guestNameKana: guest.name_kana,
        guestPhone: normalisePhone(guest.phone)!,
        guestEmail: guest.email || null,
        guestTokenHash: editToken ? hashToken(editToken) : null,
      }
    : {};

  let id: number | undefined;
  for (let attempt = 0; id === undefined; attempt++) {
    try {
      id = await db.transaction(async (tx) => {
        // The caller's row first, then the store's: the order the queue's other moves take them in
        // (their audit line holds the store's key), so neither waits on the other in a circle.
        await seat?.lock(tx);
        await claim?.lock(tx);
        const state = await lockAndLoad(tx, input.store_id, start, { now, claiming: claim?.holdId });
        if (!state) throw new Refused({ kind: 'store_not_found' });
        if (seat) checkSeatNow(state, start, input.party_size);
        else checkStart(state, start, now, input.party_size);
        checkParty(state, input.party_size, !!staff || !!seat);
        const end = stayEnd(state, start, input.party_size);
        const by = staff ? undefined : device;
        await checkDuplicate(
          tx,
          input.store_id,
          start,
          end,
          actor.kind === 'user' ? { userId: actor.userId, device: by } : { phone: contact.guestPhone, email: contact.guestEmail, device: by },
        );
        const table = pickTable(
          state,
          start,
          end,
          input.party_size,
          input.seat_preference,
          claim?.tableId,
          staff ? { only: staff.tableId } : seat ? {} : undefined,
        );
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
            deviceHash: staff ? null : (device ?? null),
            ...(locale ? { locale, remindAt: reminderDue(start, now) } : {}),
            ...contact,
          })
          .returning({ id: bookings.id });
        await staff?.record(tx, row!.id, { tableId: table.id, start, end, partySize: input.party_size });
        await seat?.record(tx, row!.id);
        await claim?.record(tx, row!.id);
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

  const booking = (await findBooking(db, id, actor.kind === 'guest' ? { kind: 'guest', token: editToken! } : actor, now))!;
  const change = { storeId: booking.storeId, released: null, taken: holdOf(booking) };
  await afterCommit(db, change);
  return { kind: 'booked', booking, change, editToken };
}
