/** Bookings in the API's JSON (src/lib/contract/responses.ts), times in Tokyo. */
import { toTokyoIso } from '../../lib/datetime';
import type { BookingJson, CancellationFeeJson } from '../../lib/contract/responses';
import { isChangeable, type BookingView } from './view';
import { clock } from '../clock';
import type { T } from '../../i18n';
import { feeJson } from './fee';
import { cancellationFee } from '../../lib/contract/fee';
import { lateNoticeOpen } from '../../lib/contract/late';

/** `reader`: whose language the fee's sentence is in (an endpoint's locals). */
export function bookingJson(b: BookingView, reader: { t: T; locale: string }, now = clock.now()): BookingJson {
  return {
    id: b.id,
    code: b.code,
    store_id: b.storeId,
    store_name: b.storeName,
    start: toTokyoIso(b.start),
    end: toTokyoIso(b.end),
    party_size: b.partySize,
    status: b.status,
    seat_preference: b.seatPreference,
    table_kind: b.tableKind,
    note: b.note,
    cancellation_policy: b.cancellationPolicy,
    cancellation_fee: bookingFee(b, reader, now),
    changeable: isChangeable(b, now),
    running_late: b.late ? { notice: b.late.notice, at: toTokyoIso(b.late.at) } : null,
    late_open: lateNoticeOpen(b, now),
    ...(b.guest ? { guest: { name: b.guest.name, name_kana: b.guest.nameKana, phone: b.guest.phone, email: b.guest.email } } : {}),
  };
}

/**
 * The fee of cancelling `b` now, or, once cancelled, the fee that cancellation cost (none when the
 * store cancelled it); reckoned from the fee's basis (a change the store made leaves it where it stood).
 */
export function bookingFee(b: BookingView, reader: { t: T; locale: string }, now = clock.now()): CancellationFeeJson {
  const { start, party } = b.feeBasis;
  if (b.status !== 'cancelled') return feeJson(cancellationFee(b.feePolicy, start, party, now), 'cancel', reader.locale, reader.t);
  const policy = b.cancelledByStore ? { freeHours: 0, feeYen: 0 } : b.feePolicy;
  return feeJson(cancellationFee(policy, start, party, b.cancelledAt ?? now), 'cancelled', reader.locale, reader.t);
}
