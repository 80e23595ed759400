/**
 * The booking service as the API speaks it: a refusal becomes its status and translated message,
 * a success sends its confirmation mail and sets its day-of reminder. Endpoints stay a few lines each.
 */
import type { Db } from '../db/types';
import { publicOrigin } from '../config';
import { ApiError, notFound, translate } from '../http/api';
import type { T } from '../../i18n';
import type { CreateInput, EditInput, GuestInput } from '../../lib/contract/booking';
import type { Translate } from '../../lib/contract/messages';
import type { SlotJson } from '../../lib/contract/responses';
import type { FeeOffer } from '../../lib/contract/enums';
import { bookingPaths } from '../../lib/contract/paths';
import { createBooking } from './create';
import { cancelBooking, editBooking } from './change';
import { bookingIcs } from './ics';
import { slotJson } from '../stores/json';
import { withFees } from './fee';
import { feePolicyOf } from './pages';
import { sendBookingMail, type MailContext } from './mail';
import { scheduleReminder } from './reminders';
import type { Booked, Refusal } from './outcome';
import { findBooking, type Actor, type BookingView } from './view';
import { clock } from '../clock';

export interface BookingContext extends MailContext {
  now?: Date;
  /** The hash of the diner's device (src/server/bookingLimits.ts), for a booking made from a browser. */
  device?: string;
}

/** What the adapters need from an endpoint's locals. */
export function bookingContext(locals: { t: T; locale: string }): BookingContext {
  return { t: translate(locals.t), locale: locals.locale, origin: publicOrigin() };
}

const fieldError = (t: Translate, field: string, key: string, params?: Record<string, unknown>) =>
  new ApiError(400, 'validation_failed', 'validation.failed', { fields: { [field]: t(key, params) } });

/** The API's answer to a refusal; `next`: a lost race's next free starts as offered (else without their fees). */
export function refusalError(t: Translate, r: Refusal, next?: SlotJson[]): ApiError {
  switch (r.kind) {
    case 'not_found':
      return notFound();
    case 'store_not_found':
      return new ApiError(404, 'not_found', 'booking.error.storeNotFound', { fields: { store_id: t('booking.error.storeNotFound') } });
    case 'bad_start':
      return fieldError(t, 'start', `booking.error.start.${r.problem}`);
    case 'party_too_big':
      return fieldError(t, 'party_size', 'booking.error.partyTooBig', { max: r.max });
    case 'slot_taken':
      return new ApiError(409, 'slot_taken', 'booking.error.slotTaken', { extra: { next_slots: next ?? r.nextSlots.map(slotJson) } });
    case 'duplicate':
      // An account, or the device that made it, is shown the first booking; otherwise only that one
      // exists (it is in the diner's mail).
      return r.first
        ? new ApiError(409, 'duplicate_booking', 'booking.error.duplicate', {
            extra: { booking_url: (r.first.guest ? bookingPaths.guestEdit : bookingPaths.edit)(r.first.storeId, r.first.id) },
          })
        : new ApiError(409, 'duplicate_booking', 'booking.error.duplicateGuest');
    case 'not_changeable':
      return new ApiError(409, 'not_changeable', 'booking.error.notChangeable');
    case 'needs_store':
      return new ApiError(409, 'change_needs_store', 'booking.edit.needsStore', { params: { phone: r.phone }, extra: { phone: r.phone } });
    case 'not_cancellable':
      return new ApiError(409, 'not_changeable', 'booking.error.notCancellable');
  }
}

/**
 * A refusal thrown by booking (`book`) or changing (`change`): a lost race's next free starts carry
 * the fee each would, worded as the day's starts are, so the one tapped is confirmed with its fee.
 */
export async function refused(db: Db, r: Refusal, offer: FeeOffer, ctx: BookingContext): Promise<ApiError> {
  if (r.kind !== 'slot_taken' || !r.asked) return refusalError(ctx.t, r);
  const policy = await feePolicyOf(db, r.asked.storeId);
  const next = r.nextSlots.map(slotJson);
  return refusalError(ctx.t, r, policy ? withFees(next, policy, r.asked.party, ctx.now ?? clock.now(), ctx, offer) : next);
}

const mailTo = (actor: Actor, b: BookingView) => (actor.kind === 'user' ? actor.email : b.guest?.email);

/** Books and mails the confirmation; a refusal is thrown as its ApiError. */
export async function book(db: Db, input: CreateInput | GuestInput, actor: Actor, ctx: BookingContext): Promise<Booked> {
  const outcome = await createBooking(db, input, actor, ctx.now, { device: ctx.device, locale: ctx.locale });
  if (outcome.kind !== 'booked') throw await refused(db, outcome, 'book', ctx);
  const to = mailTo(actor, outcome.booking);
  if (to) await sendBookingMail(db, to, outcome.booking, 'created', ctx, outcome.editToken);
  return outcome;
}

export async function change(db: Db, id: number, input: EditInput, actor: Actor, ctx: BookingContext): Promise<BookingView> {
  const outcome = await editBooking(db, id, input, actor, ctx.now);
  if (outcome.kind !== 'changed') throw await refused(db, outcome, 'change', ctx);
  await scheduleReminder(db, outcome.booking, ctx.locale, ctx.now ?? clock.now());
  const to = mailTo(actor, outcome.booking);
  if (to) await sendBookingMail(db, to, outcome.booking, 'changed', ctx);
  return outcome.booking;
}

export async function cancel(db: Db, id: number, actor: Actor, ctx: BookingContext): Promise<BookingView> {
  const outcome = await cancelBooking(db, id, actor, ctx.now);
  if (outcome.kind !== 'cancelled') throw refusalError(ctx.t, outcome);
  const to = mailTo(actor, outcome.booking);
  // Only the cancellation that happened now is mailed, not a second click.
  if (to && outcome.change) await sendBookingMail(db, to, outcome.booking, 'cancelled', ctx);
  return outcome.booking;
}

/** The actor's booking, or 404. */
export async function getBooking(db: Db, id: number, actor: Actor, now = clock.now()): Promise<BookingView> {
  const found = await findBooking(db, id, actor, now);
  if (!found) throw notFound();
  return found;
}

export function icsResponse(b: BookingView, ctx: BookingContext): Response {
  return new Response(bookingIcs(b, ctx), {
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="sugu-${b.code}.ics"`,
      'cache-control': 'no-store',
    },
  });
}
