import { api, json, readJson, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/client';
import { bookingContext, bookingJson, createBooking, createSchema, listBookings } from '../../../server/bookings';

/** The signed-in diner's bookings, newest first. */
export const GET = api(async ({ locals }) => {
  if (!locals.user) throw unauthorized();
  const now = new Date();
  const items = await listBookings(await getDb(), locals.user.id);
  return json({ items: items.map((b) => bookingJson(b, now)) });
});

/** Books a table at once: 201 with the booking, 409 `slot_taken` with `next_slots` when the slot is gone. */
export const POST = api(async ({ locals, request }) => {
  if (!locals.user) throw unauthorized();
  const input = await readJson(request, locals.t, createSchema);
  const { booking } = await createBooking(await getDb(), input, { kind: 'user', userId: locals.user.id, email: locals.user.email, name: locals.user.name }, bookingContext(locals));
  return json(bookingJson(booking), { status: 201, headers: { location: `/api/bookings/${booking.id}` } });
});
