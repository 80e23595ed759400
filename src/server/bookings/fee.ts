/**
 * The cancellation fee as the diner is told it: the rule itself (what is due when, and which changes
 * must go through the store once it is) is src/lib/contract/fee.ts; here it is worded from the
 * store's numbers (never its wording) for the confirmation before booking, the cancel confirmation
 * and the API's answers, so the diner is told the same thing everywhere.
 */
import type { T } from '../../i18n';
import { formatWhen, toTokyoIso } from '../../lib/datetime';
import { cancellationFee, type Fee, type FeePolicy } from '../../lib/contract/fee';
import { formatYen } from '../../lib/format';
import type { CancellationFeeJson, SlotJson } from '../../lib/contract/responses';
import type { FeeOffer } from '../../lib/contract/enums';

/**
 * The deadline as a timetable writes it, under its business day: `11月20日(金) 16:00`, and
 * `11月20日(金) 翌1:00（11月21日(土)）` for 1 a.m. after that day's evening.
 */
export function formatDeadline(at: Date, locale: string, t: T): string {
  return formatWhen(at, locale, t);
}

const DUE = { book: 'booking.fee.dueOnBooking', change: 'booking.fee.dueOnChange', cancel: 'booking.fee.dueNow', cancelled: 'booking.fee.charged' } as const;

/**
 * The fee in the API's JSON with its sentence in the reader's language: `book` before booking
 * (a start inside the window is charged from the moment it is booked), `change` before moving a
 * booking to a start (the same, from the moment it is changed), `cancel` for a booking,
 * `cancelled` for a booking cancelled (the fee as it stood then).
 */
export function feeJson(fee: Fee, when: FeeOffer | 'cancel' | 'cancelled', locale: string, t: T): CancellationFeeJson {
  if (fee.applies === 'none') return { applies: 'none', free_until: null, per_person: 0, total: 0, message: t('booking.fee.none') };
  const amounts = { perPerson: formatYen(fee.perPerson, locale), total: formatYen(fee.total, locale) };
  if (fee.applies === 'due') {
    const message = t(DUE[when], amounts);
    return { applies: 'due', free_until: null, per_person: fee.perPerson, total: fee.total, message };
  }
  const until = formatDeadline(fee.freeUntil, locale, t);
  const message = when === 'cancelled' ? t('booking.fee.waived') : t('booking.fee.freeUntil', { ...amounts, until });
  return { applies: 'free', free_until: toTokyoIso(fee.freeUntil), per_person: fee.perPerson, total: fee.total, message };
}

/**
 * Starts as the booking form offers them (a day's, or the next free ones after a lost race): each
 * with the fee a booking of it made, or a booking moved to it, now carries.
 */
export function withFees(
  slots: SlotJson[],
  policy: FeePolicy,
  party: number,
  now: Date,
  reader: { t: T; locale: string },
  offer: FeeOffer = 'book',
): SlotJson[] {
  return slots.map((s) => ({ ...s, cancellation_fee: feeJson(cancellationFee(policy, new Date(s.start), party, now), offer, reader.locale, reader.t) }));
}
