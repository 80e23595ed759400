import { api, idParam, json, readJson } from '../../../server/http/api';
import { getDb } from '../../../server/db/client';
import { bookingContext, bookingJson, cancelBooking, editBooking, editSchema, getBooking, guestActor } from '../../../server/bookings';

export const GET = api(async (context) => {
  return json(bookingJson(await getBooking(await getDb(), idParam(context.params.id), guestActor(context))));
});

export const PATCH = api(async (context) => {
  const { locals, params, request } = context;
  const id = idParam(params.id);
  const input = await readJson(request, locals.t, editSchema);
  return json(bookingJson(await editBooking(await getDb(), id, input, guestActor(context), bookingContext(locals))));
});

export const DELETE = api(async (context) => {
  const { locals, params } = context;
  return json(bookingJson(await cancelBooking(await getDb(), idParam(params.id), guestActor(context), bookingContext(locals))));
});
