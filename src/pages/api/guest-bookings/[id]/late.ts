import { api, idParam, json, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { sendLateNotice } from '#src/server/bookings/late.ts';
import { guestActor } from '#src/server/bookings/guestAccess.ts';
import { lateSchema } from '#src/lib/contract/booking.ts';
import { idempotent } from '#src/server/idempotency.ts';

/** Tells the store the guest is on their way or running late, for whoever holds the booking's edit token. */
export const POST = api(async (context) => {
  const { locals, params } = context;
  const id = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async (request) => {
    const input = await readJson(request, locals.t, lateSchema);
    return json(bookingJson(await sendLateNotice(db, id, input, guestActor(context)), locals));
  });
});
