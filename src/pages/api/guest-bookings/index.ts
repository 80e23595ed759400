import { api, json, readJson } from '../../../server/http/api';
import { getDb } from '../../../server/db/client';
import { bookingContext, bookingJson, createBooking, guestSchema, setGuestCookies } from '../../../server/bookings';

/**
 * Books without an account. The edit token is in this answer only (and the mail); the browser that
 * booked also gets it as an HttpOnly cookie scoped to this booking, so "my bookings on this device"
 * works without the token ever being readable by script.
 */
export const POST = api(async ({ locals, request, cookies }) => {
  const input = await readJson(request, locals.t, guestSchema);
  const { booking, editToken } = await createBooking(await getDb(), input, { kind: 'guest', token: '' }, bookingContext(locals));
  setGuestCookies(cookies, locals, booking, editToken!, booking.end.getTime() - Date.now());
  return json({ ...bookingJson(booking), edit_token: editToken }, { status: 201, headers: { location: `/api/guest-bookings/${booking.id}` } });
});
