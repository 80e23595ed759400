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
    lines.push('', `${t('booking.summary.policy')}:`, fee, b.cancellationPolicy || t('booking.policyNone'));
    if (editToken) lines.push('', t('booking.mail.editLink'), origin + bookingPaths.guestEdit(b.storeId, b.id, editToken));
    else if (!b.guest) lines.push('', t('booking.mail.manage'), `${origin}/booking-list`);
    // "On my way" / "running late" is sent from the booking's page.
    if (editToken) lines.push('', t('booking.mail.late'), origin + bookingPaths.guestEdit(b.storeId, b.id, editToken));
    else if (!b.guest) lines.push('', t('booking.mail.late'), origin + bookingPaths.edit(b.storeId, b.id));
  }
  return { subject: t(`booking.mail.${kind}.subject`, { code: b.code, store: b.storeName }), text: lines.join('\n') };
}

export async function sendBookingMail(db: Db, to: string, b: BookingView, kind: MailKind, ctx: MailContext, editToken?: string): Promise<void> {
  // Changes are coalesced (one mail per window, the latest state), so a client toggling a booking
  // cannot mail its address hundreds of times; a cancellation replaces a change still waiting.
  const about = kind === 'created' ? {} : { about: `booking:${b.id}`, ...(kind === 'changed' ? { coalesce: config().BOOKING_CHANGE_MAIL_SECONDS * 1000 } : {}) };
  await queueMail(db, { to, ...bookingMail(b, kind, ctx, editToken), locale: ctx.locale, kind: `booking_${kind}`, ...about });
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
  return { subject: t('booking.mail.reminder.subject', { store: b.storeName, time: formatTime(b.start) }), text: lines.join('\n') };
}
