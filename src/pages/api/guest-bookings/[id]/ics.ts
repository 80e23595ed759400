import { api, idParam } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { bookingContext, getBooking, icsResponse } from '#src/server/bookings/http.ts';
import { guestActor } from '#src/server/bookings/guestAccess.ts';

/** "Add to calendar" for a guest booking (token header or the booking's cookie). */
export const GET = api(async (context) => {
  const booking = await getBooking(await getDb(), idParam(context.params.id), guestActor(context));
  return icsResponse(booking, bookingContext(context.locals));
});
