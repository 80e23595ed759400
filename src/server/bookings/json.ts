/** Bookings in the API's JSON (src/lib/contract/responses.ts), times in Tokyo. */
import { toTokyoIso } from '../../lib/datetime';
import type { BookingJson } from '../../lib/contract/responses';
import { isChangeable, type BookingView } from './view';

export function bookingJson(b: BookingView, now = new Date()): BookingJson {
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
    changeable: isChangeable(b, now),
    ...(b.guest ? { guest: { name: b.guest.name, name_kana: b.guest.nameKana, phone: b.guest.phone, email: b.guest.email } } : {}),
  };
}
