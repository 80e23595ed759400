import { api, idParam } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { bookingContext, getBooking, icsResponse } from '../../../../server/bookings/http';
import { guestActor } from '../../../../server/bookings/guestAccess';

/** "Add to calendar" for a guest booking (token header or the booking's cookie). */
export const GET = api(async (context) => {
  const booking = await getBooking(await getDb(), idParam(context.params.id), guestActor(context));
  return icsResponse(booking, bookingContext(context.locals));
});
