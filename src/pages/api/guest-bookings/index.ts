import { api, json, readJson } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { book, bookingContext } from '../../../server/bookings/http';
import { bookingJson } from '../../../server/bookings/json';
import { setGuestCookies } from '../../../server/bookings/guestAccess';
import { deviceId, withinBookingLimits } from '../../../server/bookingLimits';
import { guestSchema } from '../../../lib/contract/booking';
import { bookingPaths } from '../../../lib/contract/paths';
import { clock } from '../../../server/clock';

/**
 * Books without an account. The edit token is in this answer only (and the mail); the browser that
 * booked also gets it as an HttpOnly cookie scoped to this booking, so "my bookings on this device"
 * works without the token ever being readable by script. Limited per client address, e-mail,
 * phone and device (src/server/bookingLimits.ts).
 */
export const POST = api(async ({ locals, request, cookies }) => {
  const input = await readJson(request, locals.t, guestSchema);
  const db = await getDb();
  const source = { kind: 'guest' as const, address: locals.clientAddress, email: input.email, phone: input.phone, device: deviceId(cookies, locals) };
  const { booking, editToken } = await withinBookingLimits(db, source, () => book(db, input, { kind: 'guest', token: '' }, bookingContext(locals)));
  setGuestCookies(cookies, locals, booking, editToken!, booking.end.getTime() - clock.now().getTime());
  return json({ ...bookingJson(booking, locals), edit_token: editToken }, { status: 201, headers: { location: bookingPaths.guestApi(booking.id) } });
});
