import { api, idParam, json, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { claimHold } from '#src/server/watches/holds.ts';
import { claimClient, holdAsker } from '#src/server/watches/holdHttp.ts';
import { bookingContext } from '#src/server/bookings/http.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { setNewGuestCookies } from '#src/server/bookings/guestAccess.ts';
import { watchHoldClaimSchema } from '#src/lib/contract/watches.ts';

/**
 * The watcher books the start held for them: a booking by the booking service at the held table,
 * the hold claimed with it. Past the deadline or claimed already, 409 `hold_state`; past the
 * diner's booking limits, 429 as for any booking (the hold stays theirs until its deadline).
 */
export const POST = api(async (context) => {
  const { locals, request, cookies } = context;
  const input = await readJson(request, locals.t, watchHoldClaimSchema);
  const claimed = await claimHold(
    await getDb(),
    idParam(context.params.id),
    holdAsker(locals, request, cookies),
    input,
    bookingContext(locals),
    claimClient(locals, cookies),
  );
  if (claimed.editToken) setNewGuestCookies(cookies, locals, claimed.booking, claimed.editToken);
  return json({ hold: claimed.hold, booking: bookingJson(claimed.booking, locals), booking_url: claimed.bookingUrl, edit_token: claimed.editToken });
});
