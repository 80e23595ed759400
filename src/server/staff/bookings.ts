/**
 * Bookings the store writes down or changes itself: a phone booking goes through the diners' own
 * create path (src/server/bookings/create.ts: the same start and party rules, the same store lock,
 * so a phone booking and an online booking racing for the last table have exactly one winner), and
 * a change through the diners' change path with its overlap protection. Staff may use walk-in-only
 * tables and name the table. Each is audited in its own transaction with the booking before and
 * after; the diner is mailed in their language (a phone booking's in the one staff chose, Japanese
 * by default), while refusals answer in the staff's.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings, storeTables, users } from '../db/schema';
import { ApiError, notFound, translate } from '../http/api';
import { publicOrigin } from '../config';
import { fitsSize } from '../availability';
import { createBooking, type StaffBooking } from '../bookings/create';
import { editBooking } from '../bookings/change';
import { refused, type BookingContext } from '../bookings/http';
import { sendBookingMail, type MailContext } from '../bookings/mail';
import { scheduleReminder } from '../bookings/reminders';
import type { Actor } from '../bookings/view';
import { translatorFor } from '../../i18n';
import { isLocale, type Locale } from '../../i18n/locales';
import { toTokyoIso } from '../../lib/datetime';
import type { StaffBookingInput, StoreBookingJson } from '../../lib/contract/staff';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { storeBooking } from './dayBookings';
import { clock } from '../clock';

const staffActor = (scope: StaffScope): Actor => ({ kind: 'staff', userId: scope.userId, email: scope.email, storeIds: scope.storeIds });

/** The diner's language, for their mails. */
const dinerContext = (locale: string): MailContext => {
  const l: Locale = isLocale(locale) ? locale : 'ja';
  return { t: translate(translatorFor(l)), locale: l, origin: publicOrigin() };
};

/** A booking's hold as the audit keeps it. */
const holdState = (b: { tableId: number; start: Date; end: Date; partySize: number }, extra: Record<string, unknown> = {}) => ({
  table_id: b.tableId,
  start: toTokyoIso(b.start),
  end: toTokyoIso(b.end),
  party_size: b.partySize,
  ...extra,
});

/** The table staff named, checked against the store (404) and the party (400), before any lock. */
async function checkTable(q: Q, t: BookingContext['t'], storeId: number, tableId: number | undefined, party: number | undefined): Promise<void> {
  if (tableId === undefined) return;
  const [table] = await q
    .select({ minParty: storeTables.minParty, maxParty: storeTables.maxParty })
    .from(storeTables)
    .where(and(eq(storeTables.id, tableId), eq(storeTables.storeId, storeId)));
  if (!table) throw new ApiError(404, 'not_found', 'api.error.notFound', { fields: { table_id: t('store.error.tableUnknown') } });
  if (party !== undefined && !fitsSize({ id: tableId, kind: 'table', online: true, ...table }, party)) {
    throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { table_id: t('store.error.tableSize') } });
  }
}

/**
 * A phone booking: 201 with the booking as the store sees it; refused like an online booking
 * (400 naming the field, 409 `slot_taken` with the next free starts).
 */
export async function writeDownBooking(db: Db, ctx: BookingContext, scope: StaffScope, input: StaffBookingInput, now = clock.now()): Promise<StoreBookingJson> {
  const storeId = storeOf(scope, input.store_id);
  await checkTable(db, ctx.t, storeId, input.table_id, input.party_size);
  const guest = {
    store_id: storeId,
    start: input.start,
    party_size: input.party_size,
    note: input.note,
    name: input.name,
    name_kana: input.name_kana,
    phone: input.phone,
    email: input.email ?? '',
  };
  const diner = dinerContext(input.locale ?? 'ja');
  const staff: StaffBooking = {
    tableId: input.table_id,
    record: (tx, id, after) =>
      audit(tx, scope, {
        action: 'booking_create',
        storeId,
        targetId: id,
        detail: { source: 'phone' },
        before: null,
        after: holdState(after, { status: 'confirmed' }),
      }),
  };
  const outcome = await createBooking(db, guest, staffActor(scope), now, { staff, locale: diner.locale });
  if (outcome.kind !== 'booked') throw await refused(db, outcome, 'book', { ...ctx, now });
  if (input.email) await sendBookingMail(db, input.email, outcome.booking, 'created', diner, outcome.editToken);
  return (await storeBooking(db, outcome.booking.id))!;
}

/**
 * A change made at the store (start, party, table, note), by the diners' change rules: another
 * store's booking is 404, a started or cancelled one 409 `not_changeable`, a taken table 409
 * `slot_taken`. The diner is mailed the change in the language they booked in.
 */
export async function changeFromStore(
  db: Db,
  ctx: BookingContext,
  scope: StaffScope,
  id: number,
  input: { start?: string; party_size?: number; table_id?: number; note?: string },
  now = clock.now(),
): Promise<StoreBookingJson> {
  const [found] = await db
    .select({ storeId: bookings.storeId, partySize: bookings.partySize })
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)));
  if (!found) throw notFound();
  await checkTable(db, ctx.t, found.storeId, input.table_id, input.party_size ?? found.partySize);
  const outcome = await editBooking(db, id, { start: input.start, party_size: input.party_size, note: input.note }, staffActor(scope), now, {
    tableId: input.table_id,
    record: (tx, before, after) =>
      audit(tx, scope, {
        action: 'booking_change',
        storeId: found.storeId,
        targetId: id,
        before: holdState(before, { note: before.note }),
        after: holdState(after, { note: input.note?.trim() ?? before.note }),
      }),
  });
  if (outcome.kind !== 'changed') throw await refused(db, outcome, 'change', { ...ctx, now });
  const [diner] = await db
    .select({ locale: bookings.locale, to: sql<string | null>`coalesce(${users.email}, nullif(${bookings.guestEmail}, ''))` })
    .from(bookings)
    .leftJoin(users, eq(users.id, bookings.userId))
    .where(eq(bookings.id, id));
  const mail = dinerContext(diner?.locale ?? 'ja');
  await scheduleReminder(db, outcome.booking, mail.locale, now);
  if (diner?.to) await sendBookingMail(db, diner.to, outcome.booking, 'changed', mail);
  return (await storeBooking(db, id))!;
}
