/**
 * The cancellation fee as it applies at a given moment: a store's policy is free cancelling until
 * `freeHours` before the start, then `feeYen` per person. Computed here alone, from the store's
 * numbers (never its wording), for the confirmation before booking, the cancel confirmation and the
 * API's answers, so the diner is told the same thing everywhere.
 */
import type { T } from '../../i18n';
import { formatDay, formatTime, MINUTE_MS, toTokyoIso, tokyoInstant } from '../../lib/datetime';
import { formatYen } from '../../lib/format';
import type { CancellationFeeJson, SlotJson } from '../../lib/contract/responses';
import type { FeeOffer } from '../../lib/contract/enums';
import { businessDate } from '../availability/rules';

export interface FeePolicy {
  /** Free until this many hours before the start. */
  freeHours: number;
  /** Per person after that; 0: the store charges nothing. */
  feeYen: number;
}

export type Fee =
  | { applies: 'none' }
  /** Free now; the fee applies from `freeUntil` on. */
  | { applies: 'free'; freeUntil: Date; perPerson: number; total: number }
  /** Cancelling now costs the fee. */
  | { applies: 'due'; perPerson: number; total: number };

/**
 * The fee for cancelling a booking of `party` starting at `start`, asked at `now`. The free window
 * ends at the deadline itself: cancelling exactly `freeHours` before the start is charged.
 * @example cancellationFee({ freeHours: 2, feeYen: 2000 }, new Date('2026-11-20T18:00:00+09:00'), 4, new Date('2026-11-20T17:26:00+09:00'))
 *   // { applies: 'due', perPerson: 2000, total: 8000 }
 */
export function cancellationFee(policy: FeePolicy, start: Date, party: number, now: Date): Fee {
  if (policy.feeYen <= 0) return { applies: 'none' };
  const charge = { perPerson: policy.feeYen, total: policy.feeYen * party };
  const freeUntil = new Date(start.getTime() - policy.freeHours * 60 * MINUTE_MS);
  return now.getTime() < freeUntil.getTime() ? { applies: 'free', freeUntil, ...charge } : { applies: 'due', ...charge };
}

/**
 * The deadline as a timetable writes it, under its business day: `11月20日(金) 16:00`, and
 * `11月20日(金) 翌1:00` for 1 a.m. after that day's evening.
 */
export function formatDeadline(at: Date, locale: string, t: T): string {
  const day = businessDate(at);
  return `${formatDay(tokyoInstant(day, 12 * 60), locale)} ${formatTime(at, { day, t })}`;
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
  const amounts = { perPerson: formatYen(fee.perPerson), total: formatYen(fee.total) };
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
export function withFees(slots: SlotJson[], policy: FeePolicy, party: number, now: Date, reader: { t: T; locale: string }, offer: FeeOffer = 'book'): SlotJson[] {
  return slots.map((s) => ({ ...s, cancellation_fee: feeJson(cancellationFee(policy, new Date(s.start), party, now), offer, reader.locale, reader.t) }));
}
