/**
 * A booking as its owner sees it, and the reads that find it. Ownership is part of every query:
 * someone else's booking is indistinguishable from none.
 */
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings, stores, storeTables, users } from '../db/schema';
import { hashToken } from '../sessions';
import type { Attendance, BookingStatus, LateNotice, TableKind } from '../../lib/contract/enums';
import { BOOKING_LIST_MAX, TOKEN_MAX } from '../../lib/contract/limits';
import type { FeePolicy, Held } from '../../lib/contract/fee';
import { clock } from '../clock';

/**
 * Who is asking: a signed-in diner, whoever holds a guest booking's edit token, or the staff of some
 * stores (a phone booking, a change made at the store), who may seat parties at walk-in-only tables
 * and name the table.
 */
export type Actor =
  | { kind: 'user'; userId: number; email: string; name: string }
  | { kind: 'guest'; token: string }
  | { kind: 'staff'; userId: number; email: string; storeIds: readonly number[] };

export interface BookingView {
  id: number;
  code: string;
  storeId: number;
  storeName: string;
  storeAddress: string;
  /** Where a change the fee holds back is asked for (src/lib/contract/fee.ts). */
  storePhone: string;
  cancellationPolicy: string;
  /** The numbers of the store's policy (src/server/bookings/fee.ts). */
  feePolicy: FeePolicy;
  /** What the fee is reckoned from: the start and party held, unless a change the store made left the fee where it stood. */
  feeBasis: Held;
  /** When the booking was cancelled, and whether the store did it (no fee for the diner then). */
  cancelledAt: Date | null;
  cancelledByStore: boolean;
  start: Date;
  end: Date;
  partySize: number;
  status: BookingStatus;
  seatPreference: TableKind | null;
  tableKind: TableKind;
  /** Internal: never sent to clients. */
  tableId: number;
  note: string;
  guest: { name: string; nameKana: string; phone: string; email: string } | null;
  /** Marked by the store at the door. */
  attendance: Attendance | null;
  /** The diner's latest word on the way, and when they sent it. */
  late: { notice: LateNotice; at: Date } | null;
  /** The store's grace period after the start (src/lib/contract/late.ts). */
  graceMinutes: number;
  /** How many times the booking changed: its calendar event's SEQUENCE (src/server/bookings/ics.ts). */
  revision: number;
  /** Whom the booking is under: the account's name or the guest's (the reservation markup's underName). */
  dinerName: string;
}

const viewColumns = {
  id: bookings.id,
  code: bookings.code,
  storeId: bookings.storeId,
  storeName: stores.name,
  storeAddress: stores.address,
  storePhone: stores.phone,
  cancellationPolicy: stores.cancellationPolicy,
  freeHours: stores.cancelFreeHours,
  feeYen: stores.cancelFeeYen,
  cancelledAt: bookings.cancelledAt,
  storeCancelReason: bookings.storeCancelReason,
  feeStartsAt: bookings.feeStartsAt,
  feePartySize: bookings.feePartySize,
  start: bookings.startsAt,
  end: bookings.endsAt,
  partySize: bookings.partySize,
  status: bookings.status,
  seatPreference: bookings.seatPreference,
  tableKind: storeTables.kind,
  tableId: bookings.tableId,
  note: bookings.note,
  guestName: bookings.guestName,
  guestNameKana: bookings.guestNameKana,
  guestPhone: bookings.guestPhone,
  guestEmail: bookings.guestEmail,
  attendance: bookings.attendance,
  lateNotice: bookings.lateNotice,
  lateNoticeAt: bookings.lateNoticeAt,
  graceMinutes: stores.graceMinutes,
  revision: bookings.revision,
  dinerName: sql<string>`coalesce((select ${users.name} from ${users} where ${users.id} = ${bookings.userId}), ${bookings.guestName}, '')`,
};

function select(q: Q) {
  return q.select(viewColumns).from(bookings).innerJoin(stores, eq(stores.id, bookings.storeId)).innerJoin(storeTables, eq(storeTables.id, bookings.tableId));
}

function toView({
  guestName,
  guestNameKana,
  guestPhone,
  guestEmail,
  freeHours,
  feeYen,
  storeCancelReason,
  feeStartsAt,
  feePartySize,
  lateNotice,
  lateNoticeAt,
  ...rest
}: Awaited<ReturnType<typeof select>>[number]): BookingView {
  const guest = guestName !== null ? { name: guestName, nameKana: guestNameKana ?? '', phone: guestPhone ?? '', email: guestEmail ?? '' } : null;
  const feeBasis = { start: feeStartsAt ?? rest.start, party: feePartySize ?? rest.partySize };
  const late = lateNotice && lateNoticeAt ? { notice: lateNotice, at: lateNoticeAt } : null;
  return { ...rest, feePolicy: { freeHours, feeYen }, feeBasis, cancelledByStore: storeCancelReason !== null, guest, late };
}

/**
 * The condition that makes a booking the actor's: their user id, or, for a guest, the hash of the
 * edit token on a guest booking that has not ended yet (the token dies with the stay), or, for
 * staff, their stores.
 */
function ownedBy(actor: Actor, now: Date) {
  if (actor.kind === 'user') return eq(bookings.userId, actor.userId);
  // Staff: the diners' bookings (not blocks nor walk-ins) at the stores they work for.
  if (actor.kind === 'staff') return actor.storeIds.length ? and(inArray(bookings.storeId, [...actor.storeIds]), eq(bookings.kind, 'booking')) : sql`false`;
  if (!actor.token || actor.token.length > TOKEN_MAX) return sql`false`;
  const hash = hashToken(actor.token);
  // The confirmation's link, or the day-of reminder's (src/server/bookings/reminders.ts).
  return and(isNull(bookings.userId), or(eq(bookings.guestTokenHash, hash), eq(bookings.reminderTokenHash, hash)), gt(bookings.endsAt, now));
}

/** Confirmed and not started: the diner may still change or cancel it. */
export const isChangeable = (b: Pick<BookingView, 'status' | 'start'>, now = clock.now()) => b.status === 'confirmed' && b.start.getTime() > now.getTime();

/** The actor's booking, or null. */
export async function findBooking(q: Q, id: number, actor: Actor, now = clock.now()): Promise<BookingView | null> {
  const rows = await select(q)
    .where(and(eq(bookings.id, id), ownedBy(actor, now)))
    .limit(1);
  return rows[0] ? toView(rows[0]) : null;
}

/**
 * A booking by its id alone, for the mails the server itself sends about it (the store's
 * cancellation, the reminder) to the address on the booking: never for an answer to a request.
 */
export async function bookingForMail(q: Q, id: number): Promise<BookingView | null> {
  const rows = await select(q).where(eq(bookings.id, id)).limit(1);
  return rows[0] ? toView(rows[0]) : null;
}

/** A signed-in diner's bookings, newest start first. */
export async function listBookings(db: Db, userId: number): Promise<BookingView[]> {
  const rows = await select(db).where(eq(bookings.userId, userId)).orderBy(desc(bookings.startsAt), asc(bookings.id)).limit(BOOKING_LIST_MAX);
  return rows.map(toView);
}

/** The guest booking `token` opens, while it does (it stops working when the stay ends). */
export function guestTokenValid(db: Db, id: number, token: string, now = clock.now()): Promise<BookingView | null> {
  return findBooking(db, id, { kind: 'guest', token }, now);
}
