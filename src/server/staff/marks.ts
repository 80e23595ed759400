/**
 * What staff mark on a booking: the party arrived, did not come, or the store had to cancel it —
 * then with a reason, mailed to the diner in the language they booked in, and the table freed for
 * everyone at once. Each mark is one transaction with its audit line, announced like a booking.
 * A mark made by mistake can be undone for MARK_UNDO_MINUTES: the audit keeps both lines, and a
 * diner told of a cancellation is told again that their booking stands.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { bookings, staffAudit, stores, users } from '../db/schema';
import { pgError } from '../bookings/rules';
import { MARK_UNDO_MINUTES } from '../../lib/contract/limits';
import { MINUTE_MS } from '../../lib/datetime';
import { ApiError, notFound, translate } from '../http/api';
import { publishAvailabilityChange } from '../events';
import { queueMail } from '../mail/outbox';
import { translatorFor } from '../../i18n';
import { FALLBACK_LOCALE, isLocale } from '../../i18n/locales';
import { formatStay, toTokyoIso } from '../../lib/datetime';
import type { MarkInput, StoreBookingJson } from '../../lib/contract/staff';
import type { StaffScope } from './access';
import { audit } from './audit';
import { storeBooking } from './dayBookings';
import { clock } from '../clock';
import { bookingForMail } from '../bookings/view';
import { bookingMailExtras } from '../bookings/mail';
import { publicOrigin } from '../config';

/** Who marks: staff, or the store's automatic release (no account; its stores only). */
export type MarkScope = Pick<StaffScope, 'storeIds' | 'email'> & { userId: StaffScope['userId'] | null };

const notMarkable = () => new ApiError(409, 'not_changeable', 'store.error.notMarkable');

/** Marks a booking of one of the staff's stores; another store's booking is not found. */
export async function markBooking(
  db: Db,
  scope: MarkScope,
  id: number,
  input: MarkInput,
  now = clock.now(),
  options: { unmarkedOnly?: boolean } = {},
): Promise<StoreBookingJson> {
  const reason = input.reason?.trim() ?? '';
  let released: Date | null = null;
  const done = await db.transaction(async (tx) => {
    const [b] = await tx
      .select({
        storeId: bookings.storeId,
        status: bookings.status,
        start: bookings.startsAt,
        end: bookings.endsAt,
        attendance: bookings.attendance,
        storeCancelReason: bookings.storeCancelReason,
      })
      .from(bookings)
      .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)))
      .for('update');
    if (!b) throw notFound();
    if (b.status !== 'confirmed') throw notMarkable();
    // The automatic release marks only a party nobody has marked yet (staff, or another instance, may have).
    if (options.unmarkedOnly && b.attendance !== null) throw notMarkable();
    if (input.mark === 'cancelled') {
      // A stay that is over is history: mark it, do not cancel it.
      if (b.end.getTime() <= now.getTime()) throw notMarkable();
      await tx
        .update(bookings)
        .set({ status: 'cancelled', cancelledAt: now, updatedAt: now, storeCancelReason: reason, markedAt: now })
        .where(eq(bookings.id, id));
    } else {
      // Nobody fails to come to a table that is not due yet.
      if (input.mark === 'no_show' && b.start.getTime() > now.getTime()) throw notMarkable();
      // A party that did not come needs no table: the rest of its stay is free for others from this
      // minute (the release of the ledger's 「席を解放」). Shortening a hold never collides with another.
      released = input.mark === 'no_show' ? releasedEnd(b, now) : null;
      await tx
        .update(bookings)
        .set({ attendance: input.mark, updatedAt: now, markedAt: now, ...(released ? { endsAt: released } : {}) })
        .where(eq(bookings.id, id));
    }
    const before = { ...markState(b), ...(released ? { end: toTokyoIso(b.end) } : {}) };
    const after =
      input.mark === 'cancelled'
        ? { ...before, status: 'cancelled', store_cancel_reason: reason }
        : { ...before, attendance: input.mark, ...(released ? { end: toTokyoIso(released) } : {}) };
    await audit(tx, scope, { action: `booking_${input.mark}`, storeId: b.storeId, targetId: id, detail: reason ? { reason } : {}, before, after });
    return b;
  });
  // Every mark is a change the door tablets' streams show; a cancellation also frees the table.
  await publishAvailabilityChange(db, [done.storeId]);
  if (input.mark === 'cancelled') await mailStoreMark(db, id, { reason });
  return (await storeBooking(db, id))!;
}

/** Where a no-show's stay ends now: this minute (rounded up), when the stay runs past it; else unchanged (null). */
function releasedEnd(b: { start: Date; end: Date }, now: Date): Date | null {
  const end = new Date(Math.max(Math.ceil(now.getTime() / MINUTE_MS) * MINUTE_MS, b.start.getTime() + MINUTE_MS));
  return end.getTime() < b.end.getTime() ? end : null;
}

type MarkState = { status: string; attendance: string | null; store_cancel_reason: string | null };
const markState = (b: { status: string; attendance: string | null; storeCancelReason: string | null }): MarkState => ({
  status: b.status,
  attendance: b.attendance,
  store_cancel_reason: b.storeCancelReason,
});
const MARK_ACTIONS = ['booking_arrived', 'booking_no_show', 'booking_cancelled'];

/**
 * Undoes the booking's last mark within MARK_UNDO_MINUTES of it: the attendance goes back to what it
 * was, and a store's cancellation is confirmed again when its table is still free then (else 409,
 * the booking stays cancelled). Refused (409) when there is no mark to undo or it is too late.
 */
export async function undoMark(db: Db, scope: StaffScope, id: number, now = clock.now()): Promise<StoreBookingJson> {
  let undone: { storeId: number; restored: boolean };
  let restoring: string | null = null;
  try {
    undone = await db.transaction(async (tx) => {
      const [found] = await tx
        .select({ storeId: bookings.storeId })
        .from(bookings)
        .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)));
      if (!found) throw notFound();
      // The store's lock first, as a booking takes it: a cancelled booking confirmed again competes for its table.
      await tx.execute(sql`select id from ${stores} where ${stores.id} = ${found.storeId} for update`);
      const [b] = await tx
        .select({ status: bookings.status, attendance: bookings.attendance, storeCancelReason: bookings.storeCancelReason, markedAt: bookings.markedAt })
        .from(bookings)
        .where(eq(bookings.id, id))
        .for('update');
      const cancelledByStore = b!.status === 'cancelled' && b!.storeCancelReason !== null;
      restoring = b!.attendance;
      if (!b!.markedAt || (b!.attendance === null && !cancelledByStore)) throw new ApiError(409, 'not_changeable', 'store.error.nothingToUndo');
      if (now.getTime() - b!.markedAt.getTime() > MARK_UNDO_MINUTES * MINUTE_MS) {
        throw new ApiError(409, 'undo_expired', 'store.error.undoExpired', { params: { minutes: MARK_UNDO_MINUTES } });
      }
      // What the mark replaced, as its audit line recorded it.
      const [line] = await tx
        .select({ before: staffAudit.before })
        .from(staffAudit)
        .where(and(eq(staffAudit.targetId, id), inArray(staffAudit.action, MARK_ACTIONS)))
        .orderBy(desc(staffAudit.id))
        .limit(1);
      const was = (line?.before ?? null) as (Partial<MarkState> & { end?: string }) | null;
      const restoredEnd = !cancelledByStore && b!.attendance === 'no_show' && was?.end ? new Date(was.end) : null;
      const before = markState(b!);
      const attendance = (was?.attendance ?? null) as 'arrived' | 'no_show' | null;
      if (cancelledByStore) {
        await tx
          .update(bookings)
          .set({ status: 'confirmed', cancelledAt: null, storeCancelReason: null, markedAt: null, updatedAt: now })
          .where(eq(bookings.id, id));
      } else {
        // A no-show's released stay gets its end back, unless the table was taken meanwhile (23P01 below).
        if (restoredEnd) await tx.update(bookings).set({ endsAt: restoredEnd }).where(eq(bookings.id, id));
        await tx.update(bookings).set({ attendance, markedAt: null, updatedAt: now }).where(eq(bookings.id, id));
      }
      const after = cancelledByStore
        ? { ...before, status: 'confirmed', store_cancel_reason: null }
        : { ...before, attendance, ...(restoredEnd ? { end: toTokyoIso(restoredEnd) } : {}) };
      await audit(tx, scope, {
        action: 'booking_mark_undone',
        storeId: found.storeId,
        targetId: id,
        detail: { mark: cancelledByStore ? 'cancelled' : b!.attendance },
        before,
        after,
      });
      return { storeId: found.storeId, restored: cancelledByStore };
    });
  } catch (err) {
    // Someone booked the freed table meanwhile: the cancellation stands.
    if (pgError(err).code === '23P01')
      throw new ApiError(409, 'table_held', restoring === 'no_show' ? 'store.error.undoReleaseTaken' : 'store.error.undoTableTaken');
    throw err;
  }
  await publishAvailabilityChange(db, [undone.storeId]);
  // The diner was mailed the cancellation: they must not stay away from a table that is theirs again.
  if (undone.restored) await mailStoreMark(db, id, 'restored');
  return (await storeBooking(db, id))!;
}

/**
 * The diner's mail when the store cancels (with the store's reason) or takes its cancellation back
 * (`restored`): in the language they booked in, with the booking as it stands.
 */
async function mailStoreMark(db: Db, id: number, what: { reason: string } | 'restored'): Promise<void> {
  const [b] = await db
    .select({
      code: bookings.code,
      start: bookings.startsAt,
      end: bookings.endsAt,
      party: bookings.partySize,
      locale: bookings.locale,
      store: stores.name,
      to: sql<string | null>`coalesce(${users.email}, ${bookings.guestEmail})`,
    })
    .from(bookings)
    .innerJoin(stores, eq(stores.id, bookings.storeId))
    .leftJoin(users, eq(users.id, bookings.userId))
    .where(eq(bookings.id, id));
  if (!b?.to) return;
  const locale = isLocale(b.locale) ? b.locale : FALLBACK_LOCALE;
  const t = translatorFor(locale);
  const kind = what === 'restored' ? 'restored' : 'cancelled';
  const text = [
    t(`store.mail.${kind}.intro`, { store: b.store }),
    '',
    `${t('booking.summary.code')}: ${b.code}`,
    `${t('booking.summary.store')}: ${b.store}`,
    `${t('booking.summary.time')}: ${formatStay(b.start, b.end, locale, t)}`,
    `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.party })}`,
    ...(what === 'restored' ? [] : [`${t('store.mail.cancelled.reason')}: ${what.reason}`]),
  ].join('\n');
  // As the diner's own booking mails: the reservation (now cancelled, or confirmed again) and the
  // invitation that removes the event from their calendar or puts it back.
  const view = (await bookingForMail(db, id))!;
  const extras = bookingMailExtras(view, b.to, { t: translate(t), locale, origin: publicOrigin() });
  await queueMail(db, {
    to: b.to,
    subject: t(`store.mail.${kind}.subject`, { code: b.code, store: b.store }),
    text,
    ...extras,
    locale,
    kind: `booking_store_${kind}`,
  });
}
