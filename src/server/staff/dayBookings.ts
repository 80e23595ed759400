/**
 * The day's bookings at one store, for the staff's list: every booking starting in the business day
 * (Asia/Tokyo, 05:00 to 05:00), cancelled ones included, the latest change first — a tablet at
 * the door sees what just happened at the top.
 */
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Q } from '../db/types';
import { bookings, storeTables, stores, users } from '../db/schema';
import { businessDayRange } from '../availability';
import { MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import { MARK_UNDO_MINUTES } from '../../lib/contract/limits';
import { releaseFrom } from '../../lib/contract/late';
import type { StoreBookingJson } from '../../lib/contract/staff';

const columns = {
  id: bookings.id,
  code: bookings.code,
  storeId: bookings.storeId,
  start: bookings.startsAt,
  end: bookings.endsAt,
  partySize: bookings.partySize,
  status: bookings.status,
  tableId: storeTables.id,
  tableLabel: storeTables.label,
  tableKind: storeTables.kind,
  note: bookings.note,
  seatPreference: bookings.seatPreference,
  attendance: bookings.attendance,
  storeCancelReason: bookings.storeCancelReason,
  markedAt: bookings.markedAt,
  lateNotice: bookings.lateNotice,
  lateNoticeAt: bookings.lateNoticeAt,
  graceMinutes: stores.graceMinutes,
  guestName: bookings.guestName,
  guestNameKana: bookings.guestNameKana,
  guestPhone: bookings.guestPhone,
  guestEmail: bookings.guestEmail,
  userName: users.name,
  userNameKana: users.nameKana,
  userPhone: users.phone,
  userEmail: users.email,
  createdAt: bookings.createdAt,
  updatedAt: bookings.updatedAt,
  cancelledAt: bookings.cancelledAt,
};

const select = (q: Q) =>
  q
    .select(columns)
    .from(bookings)
    .innerJoin(storeTables, eq(storeTables.id, bookings.tableId))
    .innerJoin(stores, eq(stores.id, bookings.storeId))
    .leftJoin(users, eq(users.id, bookings.userId));

type Row = Awaited<ReturnType<typeof select>>[number];

function toJson(r: Row): StoreBookingJson {
  const guest = r.guestName !== null;
  return {
    id: r.id,
    code: r.code,
    store_id: r.storeId,
    start: toTokyoIso(r.start),
    end: toTokyoIso(r.end),
    party_size: r.partySize,
    status: r.status,
    table: { id: r.tableId, label: r.tableLabel, kind: r.tableKind },
    contact: guest
      ? { name: r.guestName ?? '', name_kana: r.guestNameKana ?? '', phone: r.guestPhone ?? '', email: r.guestEmail ?? '', guest }
      : { name: r.userName ?? '', name_kana: r.userNameKana ?? '', phone: r.userPhone ?? '', email: r.userEmail ?? '', guest },
    note: r.note,
    seat_preference: r.seatPreference,
    attendance: r.attendance,
    store_cancel_reason: r.storeCancelReason,
    undo_until:
      r.markedAt && (r.attendance !== null || r.storeCancelReason !== null) ? toTokyoIso(new Date(r.markedAt.getTime() + MARK_UNDO_MINUTES * MINUTE_MS)) : null,
    late: r.lateNotice && r.lateNoticeAt ? { notice: r.lateNotice, at: toTokyoIso(r.lateNoticeAt) } : null,
    release_from: toTokyoIso(releaseFrom({ start: r.start, graceMinutes: r.graceMinutes })),
    created_at: toTokyoIso(r.createdAt),
    updated_at: toTokyoIso(r.updatedAt),
    cancelled_at: r.cancelledAt ? toTokyoIso(r.cancelledAt) : null,
  };
}

/** The bookings starting in business day `date` at `storeId`, latest change first. */
export async function dayBookings(q: Q, storeId: number, date: string): Promise<StoreBookingJson[]> {
  const { start, end } = businessDayRange(date);
  const rows = await select(q)
    .where(and(eq(bookings.storeId, storeId), eq(bookings.kind, 'booking'), gte(bookings.startsAt, start), lt(bookings.startsAt, end)))
    .orderBy(desc(bookings.updatedAt), desc(bookings.id));
  return rows.map(toJson);
}

/** One booking (not a block) as the store sees it, or null. */
export async function storeBooking(q: Q, id: number): Promise<StoreBookingJson | null> {
  const [row] = await select(q).where(and(eq(bookings.id, id), eq(bookings.kind, 'booking')));
  return row ? toJson(row) : null;
}

/** Bookings (not blocks) matching `where`, in `order`, with the instant of their last change. */
export async function bookingsWhere(q: Q, where: SQL | undefined, order: SQL): Promise<{ json: StoreBookingJson; changedAt: Date }[]> {
  const rows = await select(q)
    .where(and(eq(bookings.kind, 'booking'), where))
    .orderBy(order);
  return rows.map((r) => ({ json: toJson(r), changedAt: r.updatedAt }));
}
