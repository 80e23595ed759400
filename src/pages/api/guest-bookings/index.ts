import { api, json, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { book, bookingContext } from '#src/server/bookings/http.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { setNewGuestCookies } from '#src/server/bookings/guestAccess.ts';
import { deviceHash, deviceId, withinBookingLimits } from '#src/server/bookingLimits.ts';
import { guestSchema } from '#src/lib/contract/booking.ts';
import { bookingPaths } from '#src/lib/contract/paths.ts';
import { idempotent } from '#src/server/idempotency.ts';

/**
 * Books without an account. The edit token is in this answer only (and the mail); the browser that
 * booked also gets it as an HttpOnly cookie scoped to this booking, so "my bookings on this device"
 * works without the token ever being readable by script. Limited per client address, e-mail,
 * phone and device (src/server/bookingLimits.ts). With an `Idempotency-Key`, a retry gets the first
 * answer, edit token included (src/server/idempotency.ts).
 */
export const POST = api(async (context) => {
  const { locals, cookies } = context;
  const db = await getDb();
  return idempotent(
    db,
    context,
    async (request) => {
      const input = await readJson(request, locals.t, guestSchema);
      const device = deviceId(cookies, locals);
      const source = { kind: 'guest' as const, address: locals.clientAddress, email: input.email, phone: input.phone, device };
      const ctx = { ...bookingContext(locals), device: deviceHash(device) };
      const { booking, editToken } = await withinBookingLimits(db, source, () => book(db, input, { kind: 'guest', token: '' }, ctx));
      setNewGuestCookies(cookies, locals, booking, editToken!);
      return json({ ...bookingJson(booking, locals), edit_token: editToken }, { status: 201, headers: { location: bookingPaths.guestApi(booking.id) } });
    },
    // A retry whose first answer was lost: this browser gets the booking's cookies as the first would have.
    (answer) => {
      if (answer.status !== 201) return;
      const b = JSON.parse(answer.body) as { id: number; store_id: number; end: string; edit_token: string };
      setNewGuestCookies(cookies, locals, { id: b.id, storeId: b.store_id, end: new Date(b.end) }, b.edit_token);
    },
  );
});
