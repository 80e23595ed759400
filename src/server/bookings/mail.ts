/**
 * The mails of a booking: made, changed, cancelled, and the day-of reminder. Plain text in the diner's
 * language, times in Tokyo, the guest's edit link when there is one.
 */
import type { Db } from '../db/types';
import { queueMail } from '../mail/outbox';
import { config } from '../config';
import { formatStay, formatTime } from '../../lib/datetime';
import { bookingPaths, mapLink } from '../../lib/contract/paths';
import type { Translate } from '../../lib/contract/messages';
import type { BookingView } from './view';
import { bookingFee } from './json';
import { policyBesideFee } from '../../lib/contract/fee';
import { reservationLd } from '../structuredData';
import { bookingIcs } from './ics';

export type MailKind = 'created' | 'changed' | 'cancelled';

export interface MailContext {
  t: Translate;
  locale: string;
  /** Origin of the site, for links. */
  origin: string;
}

/** Subject and text of one confirmation mail. */
export function bookingMail(b: BookingView, kind: MailKind, ctx: MailContext, editToken?: string): { subject: string; text: string } {
  const { t, locale, origin } = ctx;
  const lines = [
    t(`booking.mail.${kind}.intro`),
    '',
    `${t('booking.summary.code')}: ${b.code}`,
    `${t('booking.summary.store')}: ${b.storeName}`,
    `${t('booking.summary.time')}: ${formatStay(b.start, b.end, locale, t)}`,
    `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.partySize })}`,
  ];
  // The note is the booker's own text, and no address here is confirmed (a guest types any address;
  // accounts are not verified): never mail it, or anyone could send anything from no-reply@sugu.jp.
  if (b.note) lines.push(t('booking.mail.noteOnPage'));
  // The fee as it stands when the mail is written: free until …, due from now, or what a cancellation cost.
  const fee = bookingFee(b, { t, locale }).message;
  if (kind === 'cancelled') lines.push('', fee);
  else {
    const wording = policyBesideFee(fee, b.cancellationPolicy);
    lines.push('', `${t('booking.summary.policy')}:`, fee, ...(wording === null ? [] : [wording || t('booking.policyNone')]));
    if (editToken) lines.push('', t('booking.mail.editLink'), origin + bookingPaths.guestEdit(b.storeId, b.id, editToken));
    else if (!b.guest) lines.push('', t('booking.mail.manage'), `${origin}/booking-list`);
    // "On my way" / "running late" is sent from the booking's page.
    if (editToken) lines.push('', t('booking.mail.late'), origin + bookingPaths.guestEdit(b.storeId, b.id, editToken));
    else if (!b.guest) lines.push('', t('booking.mail.late'), origin + bookingPaths.edit(b.storeId, b.id));
  }
  return { subject: t(`booking.mail.${kind}.subject`, { code: b.code, store: b.storeName }), text: lines.join('\n') };
}

/**
 * Where the diner changes the booking: a guest's edit link (with its token in the confirmation,
 * without it later: it opens in the browser that booked, which holds the token in a cookie), or a
 * signed-in diner's edit page.
 */
export function modifyUrl(b: Pick<BookingView, 'id' | 'storeId' | 'guest'>, origin: string, editToken?: string): string {
  return origin + (editToken || b.guest ? bookingPaths.guestEdit(b.storeId, b.id, editToken) : bookingPaths.edit(b.storeId, b.id));
}

/** The site's sender, `すぐ予約 <no-reply@sugu.jp>` read as a name and an address. */
function sender(): { name: string; email: string } {
  const from = config().MAIL_FROM;
  const address = from.match(/<([^<>]+)>/)?.[1] ?? from;
  return { name: from.replace(/<[^<>]*>/, '').trim() || address, email: address };
}

/**
 * What every mail about a booking carries besides its text: the reservation's schema.org markup for
 * the HTML part (src/server/structuredData.ts), and the calendar invitation that adds, moves or
 * removes the event in the diner's calendar (src/server/bookings/ics.ts).
 */
export function bookingMailExtras(b: BookingView, to: string, ctx: MailContext, editToken?: string): { markup: object; calendar: string } {
  const diner = { name: b.dinerName || to, email: to };
  return {
    markup: reservationLd(b, diner, { origin: ctx.origin, modify: modifyUrl(b, ctx.origin, editToken) }),
    calendar: bookingIcs(b, { ...ctx, invite: { from: { ...sender(), name: b.storeName }, to: diner } }),
  };
}

/** Queues a booking's mail: the text, the same in HTML with the reservation's markup, and the invitation. */
export async function sendBookingMail(db: Db, to: string, b: BookingView, kind: MailKind, ctx: MailContext, editToken?: string): Promise<void> {
  // Changes are coalesced (one mail per window, the latest state), so a client toggling a booking
  // cannot mail its address hundreds of times; a cancellation replaces a change still waiting.
  const about =
    kind === 'created' ? {} : { about: `booking:${b.id}`, ...(kind === 'changed' ? { coalesce: config().BOOKING_CHANGE_MAIL_SECONDS * 1000 } : {}) };
  await queueMail(db, {
    to,
    ...bookingMail(b, kind, ctx, editToken),
    ...bookingMailExtras(b, to, ctx, editToken),
    locale: ctx.locale,
    kind: `booking_${kind}`,
    ...about,
  });
}

/** What the day-of reminder says about a booking. */
export interface ReminderFacts {
  id: number;
  code: string;
  storeId: number;
  storeName: string;
  storeAddress: string;
  storePhone: string;
  lat: number;
  lng: number;
  start: Date;
  end: Date;
  partySize: number;
}

/** Subject and text of the day-of reminder; `editLink` changes or cancels the booking. */
export function reminderMail(b: ReminderFacts, ctx: MailContext, editLink: string): { subject: string; text: string } {
  const { t, locale } = ctx;
  const lines = [
    t('booking.mail.reminder.intro'),
    '',
    `${t('booking.summary.code')}: ${b.code}`,
    `${t('booking.summary.store')}: ${b.storeName}`,
    `${t('booking.summary.time')}: ${formatStay(b.start, b.end, locale, t)}`,
    `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.partySize })}`,
    `${t('booking.summary.address')}: ${b.storeAddress}`,
    `${t('booking.summary.phone')}: ${b.storePhone}`,
    '',
    t('booking.mail.map'),
    mapLink(b.lat, b.lng),
    '',
    t('booking.mail.editLink'),
    editLink,
  ];
  return { subject: t('booking.mail.reminder.subject', { store: b.storeName, time: formatTime(b.start, t) }), text: lines.join('\n') };
}
