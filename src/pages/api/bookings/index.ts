import { api, json, readJson, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/client';
import { bookingContext, bookingJson, createBooking, createSchema, listBookings } from '../../../server/bookings';
import { withinBookingLimits } from '../../../server/bookingLimits';

/** The signed-in diner's bookings, newest first. */
export const GET = api(async ({ locals }) => {
  if (!locals.user) throw unauthorized();
  const now = new Date();
  const items = await listBookings(await getDb(), locals.user.id);
  return json({ items: items.map((b) => bookingJson(b, now)) });
});

/** Books a table at once: 201 with the booking, 409 `slot_taken` with `next_slots` when the slot is gone, 429 past the limits. */
export const POST = api(async ({ locals, request }) => {
  const user = locals.user;
  if (!user) throw unauthorized();
  const input = await readJson(request, locals.t, createSchema);
  const db = await getDb();
  const { booking } = await withinBookingLimits(db, { kind: 'user', userId: user.id }, () =>
    createBooking(db, input, { kind: 'user', userId: user.id, email: user.email, name: user.name }, bookingContext(locals)),
  );
  return json(bookingJson(booking), { status: 201, headers: { location: `/api/bookings/${booking.id}` } });
});
