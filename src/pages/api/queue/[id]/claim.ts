import { api, idParam, json } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { queueActor } from '#src/server/queue/http.ts';
import { claimCall } from '#src/server/queue/claim.ts';
import { bookingContext } from '#src/server/bookings/http.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { setNewGuestCookies } from '#src/server/bookings/guestAccess.ts';

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
