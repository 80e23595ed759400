import { api, idParam, json } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { queueActor } from '../../../../server/queue/http';
import { claimCall } from '../../../../server/queue/claim';
import { bookingContext } from '../../../../server/bookings/http';
import { bookingJson } from '../../../../server/bookings/json';
import { setNewGuestCookies } from '../../../../server/bookings/guestAccess';

/**
 * The called party confirms within its window: a booking starting now, the entry seated with it.
 * Past the deadline, or already seated, left or marked, 409 `queue_state`. A guest's browser gets
 * the new booking's cookies, as a guest booking's does.
 */
export const POST = api(async (context) => {
  const { locals, cookies } = context;
  const claimed = await claimCall(await getDb(), idParam(context.params.id), queueActor(context), bookingContext(locals));
  if (claimed.editToken) setNewGuestCookies(cookies, locals, claimed.booking, claimed.editToken);
  return json({ entry: claimed.entry, booking: bookingJson(claimed.booking, locals), booking_url: claimed.bookingUrl, edit_token: claimed.editToken });
});
