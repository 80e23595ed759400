import { api, idParam, json, readJson } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { claimHold } from '../../../../server/watches/holds';
import { claimClient, holdAsker } from '../../../../server/watches/holdHttp';
import { bookingContext } from '../../../../server/bookings/http';
import { bookingJson } from '../../../../server/bookings/json';
import { setNewGuestCookies } from '../../../../server/bookings/guestAccess';
import { watchHoldClaimSchema } from '../../../../lib/contract/watches';

/**
 * The watcher books the start held for them: a booking by the booking service at the held table,
 * the hold claimed with it. Past the deadline or claimed already, 409 `hold_state`; past the
 * diner's booking limits, 429 as for any booking (the hold stays theirs until its deadline).
 */
export const POST = api(async (context) => {
  const { locals, request, cookies } = context;
  const input = await readJson(request, locals.t, watchHoldClaimSchema);
  const claimed = await claimHold(await getDb(), idParam(context.params.id), holdAsker(locals, request, cookies), input, bookingContext(locals), claimClient(locals, cookies));
  if (claimed.editToken) setNewGuestCookies(cookies, locals, claimed.booking, claimed.editToken);
  return json({ hold: claimed.hold, booking: bookingJson(claimed.booking, locals), booking_url: claimed.bookingUrl, edit_token: claimed.editToken });
});
