import { api, idParam, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { bookingContext, getBooking, icsResponse } from '#src/server/bookings/http.ts';

/** "Add to calendar" for one of the diner's own bookings. */
export const GET = api(async ({ locals, params }) => {
  if (!locals.user) throw unauthorized();
  const booking = await getBooking(await getDb(), idParam(params.id), {
    kind: 'user',
    userId: locals.user.id,
    email: locals.user.email,
    name: locals.user.name,
  });
  return icsResponse(booking, bookingContext(locals));
});
