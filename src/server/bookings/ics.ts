/** A booking as an .ics file for "add to calendar". */
import { buildIcs } from '../../lib/ics';
import type { Translate } from '../../lib/contract/messages';
import type { BookingView } from './view';

export function bookingIcs(b: BookingView, ctx: { t: Translate; origin: string }): string {
  const { t } = ctx;
  return buildIcs({
    uid: `${b.code}@sugu.jp`,
    start: b.start,
    end: b.end,
    summary: t('booking.ics.summary', { store: b.storeName }),
    location: b.storeAddress,
    description: [`${t('booking.summary.code')}: ${b.code}`, `${t('booking.summary.party')}: ${t('booking.partyCount', { count: b.partySize })}`, b.note].filter(Boolean).join('\n'),
    url: `${ctx.origin}/store/${b.storeId}`,
  });
}
