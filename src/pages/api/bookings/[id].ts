import { api, idParam, json, readJson, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { bookingContext, cancel, change, getBooking } from '#src/server/bookings/http.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import type { Actor } from '#src/server/bookings/view.ts';
import { editSchema } from '#src/lib/contract/booking.ts';
import { idempotent } from '#src/server/idempotency.ts';

function actorOf(locals: App.Locals): Actor {
  if (!locals.user) throw unauthorized();
  return { kind: 'user', userId: locals.user.id, email: locals.user.email, name: locals.user.name };
}

/** One of the diner's own bookings; anyone else's id is simply not found. */
export const GET = api(async ({ locals, params }) => {
  const actor = actorOf(locals);
  return json(bookingJson(await getBooking(await getDb(), idParam(params.id), actor), locals));
});

/** Changes time, party size, seat preference or note in one step. */
export const PATCH = api(async (context) => {
  const { locals, params } = context;
  const actor = actorOf(locals);
  const id = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async (request) => {
    const input = await readJson(request, locals.t, editSchema);
    return json(bookingJson(await change(db, id, input, actor, bookingContext(locals)), locals));
  });
});

/** Cancels (until the start time). */
export const DELETE = api(async (context) => {
  const { locals, params } = context;
  const actor = actorOf(locals);
  const id = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async () => json(bookingJson(await cancel(db, id, actor, bookingContext(locals)), locals)));
});
