/**
 * A booking as an .ics file: the download ("add to calendar", METHOD:PUBLISH) and the invitation
 * sent with each booking mail (REQUEST when made or changed, CANCEL when cancelled). Every file of
 * one booking carries the same UID and the booking's revision as SEQUENCE, so a calendar that has
 * the event updates or removes it instead of adding another.
 */
import { buildIcs } from '../../lib/ics';
import type { Translate } from '../../lib/contract/messages';
import { formatStay } from '../../lib/datetime';
import type { BookingView } from './view';

/**
 * The event's UID: the booking's id at the site's host, the same in every file and mail about it,
 * never random (a new UID is a second event in the diner's calendar).
 * @example bookingUid(12, 'https://sugu.jp') // 'booking-12@sugu.jp'
 */
export const bookingUid = (id: number, origin: string) => `booking-${id}@${new URL(origin).hostname}`;

export interface IcsContext {
  t: Translate;
  locale: string;
  origin: string;
  /** For an invitation by mail: who sends it (the site's sender) and to whom. */
  invite?: { from: { name: string; email: string }; to: { name: string; email: string } };
}

export function bookingIcs(b: BookingView, ctx: IcsContext): string {
  const { t } = ctx;
  const cancelled = b.status === 'cancelled';
  return buildIcs({
    uid: bookingUid(b.id, ctx.origin),
    sequence: b.revision,
    method: ctx.invite ? (cancelled ? 'CANCEL' : 'REQUEST') : 'PUBLISH',
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    ...(ctx.invite ? { organizer: ctx.invite.from, attendee: ctx.invite.to } : {}),
    start: b.start,
    end: b.end,
    summary: t('booking.ics.summary', { store: b.storeName }),
    location: b.storeAddress,
    // The stay in words too, written as everywhere else (翌0:30 under its business day), for calendars
    // that show the description rather than the times.
    description: [
      `${t('booking.summary.time')}: ${formatStay(b.start, b.end, ctx.locale, t)}`,
      `${t('booking.summary.code')}: ${b.code}`,
      `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.partySize })}`,
      b.note,
    ]
      .filter(Boolean)
      .join('\n'),
    url: `${ctx.origin}/store/${b.storeId}`,
  });
}
