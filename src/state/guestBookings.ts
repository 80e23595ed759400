import { persistentAtom } from '@nanostores/persistent';

/**
 * Guest bookings made on this device, so /booking-list can show them. Only what is not secret is
 * kept here (id, store, code, start): the edit token stays in an HttpOnly cookie scoped to that
 * booking, which script cannot read, so a cross-site script or a shared device's storage dump
 * cannot take over a booking.
 */
export interface RememberedBooking {
  id: number;
  storeId: number;
  code: string;
  /** ISO start, for ordering before the details load. */
  start: string;
}

export const $guestBookings = persistentAtom<RememberedBooking[]>('guestBookings', [], {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const list = JSON.parse(raw) as unknown;
      return Array.isArray(list)
        ? list.filter(
            (b): b is RememberedBooking =>
              Number.isInteger(b?.id) && Number.isInteger(b?.storeId) && typeof b?.code === 'string' && typeof b?.start === 'string',
          )
        : [];
    } catch {
      return [];
    }
  },
});

export function rememberGuestBooking(b: RememberedBooking): void {
  $guestBookings.set([b, ...$guestBookings.get().filter((x) => x.id !== b.id)].slice(0, 50));
}

export function forgetGuestBooking(id: number): void {
  $guestBookings.set($guestBookings.get().filter((x) => x.id !== id));
}
