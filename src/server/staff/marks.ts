/**
 * What staff mark on a booking: the party arrived, did not come, or the store had to cancel it —
 * then with a reason, mailed to the diner in the language they booked in, and the table freed for
 * everyone at once. Each mark is one transaction with its audit line, announced like a booking.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { bookings, stores, users } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import { queueMail } from '../mail/outbox';
import { translatorFor } from '../../i18n';
import { FALLBACK_LOCALE, isLocale } from '../../i18n/locales';
import { formatStay } from '../../lib/datetime';
import type { MarkInput, StoreBookingJson } from '../../lib/contract/store';
import type { StaffScope } from './access';
import { audit } from './audit';
import { storeBooking } from './dayBookings';
import { clock } from '../clock';

const notMarkable = () => new ApiError(409, 'not_changeable', 'store.error.notMarkable');

/** Marks a booking of one of the staff's stores; another store's booking is not found. */
export async function markBooking(db: Db, scope: StaffScope, id: number, input: MarkInput, now = clock.now()): Promise<StoreBookingJson> {
  const reason = input.reason?.trim() ?? '';
  const done = await db.transaction(async (tx) => {
    const [b] = await tx
      .select({ storeId: bookings.storeId, status: bookings.status, start: bookings.startsAt, end: bookings.endsAt })
      .from(bookings)
      .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)))
      .for('update');
    if (!b) throw notFound();
    if (b.status !== 'confirmed') throw notMarkable();
    if (input.mark === 'cancelled') {
      // A stay that is over is history: mark it, do not cancel it.
      if (b.end.getTime() <= now.getTime()) throw notMarkable();
      await tx.update(bookings).set({ status: 'cancelled', cancelledAt: now, updatedAt: now, storeCancelReason: reason }).where(eq(bookings.id, id));
    } else {
      // Nobody fails to come to a table that is not due yet.
      if (input.mark === 'no_show' && b.start.getTime() > now.getTime()) throw notMarkable();
      await tx.update(bookings).set({ attendance: input.mark, updatedAt: now }).where(eq(bookings.id, id));
    }
    await audit(tx, scope, { action: `booking_${input.mark}`, storeId: b.storeId, targetId: id, detail: reason ? { reason } : {} });
    return b;
  });
  // Every mark is a change the door tablets' streams show; a cancellation also frees the table.
  await publishAvailabilityChange(db, [done.storeId]);
  if (input.mark === 'cancelled') await mailStoreCancellation(db, id, reason);
  return (await storeBooking(db, id))!;
}

/** The diner's mail when the store cancels: in the language they booked in, with the store's reason. */
async function mailStoreCancellation(db: Db, id: number, reason: string): Promise<void> {
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
  const text = [
    t('store.mail.cancelled.intro', { store: b.store }),
    '',
    `${t('booking.summary.code')}: ${b.code}`,
    `${t('booking.summary.store')}: ${b.store}`,
    `${t('booking.summary.time')}: ${formatStay(b.start, b.end, locale, t)}`,
    `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.party })}`,
    `${t('store.mail.cancelled.reason')}: ${reason}`,
  ].join('\n');
  await queueMail(db, { to: b.to, subject: t('store.mail.cancelled.subject', { code: b.code, store: b.store }), text, locale, kind: 'booking_store_cancelled' });
}
