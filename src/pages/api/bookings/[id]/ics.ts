import { api, idParam, unauthorized } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { bookingContext, getBooking, icsResponse } from '../../../../server/bookings/http';

/** "Add to calendar" for one of the diner's own bookings. */
export const GET = api(async ({ locals, params }) => {
  if (!locals.user) throw unauthorized();
  const booking = await getBooking(await getDb(), idParam(params.id), { kind: 'user', userId: locals.user.id, email: locals.user.email, name: locals.user.name });
  return icsResponse(booking, bookingContext(locals));
});
