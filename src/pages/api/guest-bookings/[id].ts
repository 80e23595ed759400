import { api, idParam, json, readJson } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { bookingContext, cancel, change, getBooking } from '../../../server/bookings/http';
import { bookingJson } from '../../../server/bookings/json';
import { guestActor } from '../../../server/bookings/guestAccess';
import { editSchema } from '../../../lib/contract/booking';
import { idempotent } from '../../../server/idempotency';

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
