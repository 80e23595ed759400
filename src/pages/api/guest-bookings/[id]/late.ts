import { api, idParam, json, readJson } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { bookingJson } from '../../../../server/bookings/json';
import { sendLateNotice } from '../../../../server/bookings/late';
import { guestActor } from '../../../../server/bookings/guestAccess';
import { lateSchema } from '../../../../lib/contract/booking';
import { idempotent } from '../../../../server/idempotency';

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
