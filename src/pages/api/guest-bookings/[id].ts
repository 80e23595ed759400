import { api, idParam, json, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { bookingContext, cancel, change, getBooking } from '#src/server/bookings/http.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { guestActor } from '#src/server/bookings/guestAccess.ts';
import { editSchema } from '#src/lib/contract/booking.ts';
import { idempotent } from '#src/server/idempotency.ts';

/** A guest booking, for whoever holds its edit token (header or this booking's cookie). */
export const GET = api(async (context) => {
  return json(bookingJson(await getBooking(await getDb(), idParam(context.params.id), guestActor(context)), context.locals));
});

export const PATCH = api(async (context) => {
  const { locals, params } = context;
  const id = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async (request) => {
    const input = await readJson(request, locals.t, editSchema);
    return json(bookingJson(await change(db, id, input, guestActor(context), bookingContext(locals)), locals));
  });
});

export const DELETE = api(async (context) => {
  const { locals, params } = context;
  const id = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async () => json(bookingJson(await cancel(db, id, guestActor(context), bookingContext(locals)), locals)));
});
