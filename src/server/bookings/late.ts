/**
 * Running late: the diner tells the store they are on their way, or 10 or 15 minutes late, while
 * the booking is upcoming (src/lib/contract/late.ts). The latest word is kept on the booking with
 * its time, written in the audit with the change, and announced like any booking change, so the
 * store's ledger shows it at once on every instance. The JSON API and the booking pages' plain form
 * both call `sendLateNotice`.
 */
import { and, eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from '../db/types';
import { bookings, stores } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import { audit } from '../staff/audit';
import { lateSchema, type LateInput } from '../../lib/contract/booking';
import { lateNoticeOpen } from '../../lib/contract/late';
import { toTokyoIso } from '../../lib/datetime';
import type { PageContext } from './form';
import { findBooking, type Actor, type BookingView } from './view';
import { clock } from '../clock';

const lateClosed = () => new ApiError(409, 'not_changeable', 'booking.error.lateClosed');

/** Keeps the diner's notice on their booking; someone else's booking is not found, one not upcoming is refused (409). */
export async function sendLateNotice(db: Db, id: number, input: LateInput, actor: Actor, now = clock.now()): Promise<BookingView> {
  const mine = await findBooking(db, id, actor, now);
  if (!mine || actor.kind === 'staff') throw notFound();
  const storeId = await db.transaction(async (tx) => {
    const [b] = await tx
      .select({
        storeId: bookings.storeId,
        status: bookings.status,
        attendance: bookings.attendance,
        start: bookings.startsAt,
        notice: bookings.lateNotice,
        at: bookings.lateNoticeAt,
        graceMinutes: stores.graceMinutes,
      })
      .from(bookings)
      .innerJoin(stores, eq(stores.id, bookings.storeId))
      .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking')))
      .for('update', { of: bookings });
    if (!b || !lateNoticeOpen(b, now)) throw lateClosed();
    await tx.update(bookings).set({ lateNotice: input.notice, lateNoticeAt: now, updatedAt: now }).where(eq(bookings.id, id));
    const who = actor.kind === 'user' ? { userId: actor.userId, email: actor.email } : { userId: null, email: mine.guest?.email ?? '' };
    await audit(tx, who, {
      action: 'booking_running_late',
      storeId: b.storeId,
      targetId: id,
      before: { late_notice: b.notice, late_notice_at: b.at ? toTokyoIso(b.at) : null },
      after: { late_notice: input.notice, late_notice_at: toTokyoIso(now) },
    });
    return b.storeId;
  });
  // The door tablets' streams redraw the row.
  await publishAvailabilityChange(db, [storeId]);
  return (await findBooking(db, id, actor, now))!;
}

/**
 * The booking pages' plain form (`intent=late`, the notice in the button pressed): null when the
 * post is another form's; else the page's redirect (PRG, `?done=late`) or the refusal to show.
 */
export async function lateFormPost(
  db: Db,
  booking: BookingView,
  actor: Actor,
  page: PageContext,
  now = clock.now(),
): Promise<{ redirect: string } | { error: string; status: number } | null> {
  if (page.request.method !== 'POST') return null;
  // The edit form reads the body after this one: a copy is read here.
  const form = await page.request
    .clone()
    .formData()
    .catch(() => null);
  if (form?.get('intent') !== 'late') return null;
  page.response.headers.set('cache-control', 'no-store');
  const parsed = z.safeParse(lateSchema, { notice: form.get('notice') });
  const { t } = page.locals;
  if (!parsed.success) {
    page.response.status = 400;
    return { error: t('booking.late.choose'), status: 400 };
  }
  try {
    await sendLateNotice(db, booking.id, parsed.data, actor, now);
    return { redirect: `${page.url.pathname}?done=late` };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    page.response.status = e.status;
    return { error: t(e.messageKey, e.options.params), status: e.status };
  }
}

/** The page as a GET, for the edit form drawn under a refused notice (the post was not the edit form's). */
export const afterLate = (page: PageContext): PageContext => ({
  request: new Request(page.url),
  url: page.url,
  locals: page.locals,
  cookies: page.cookies,
  response: page.response,
});
