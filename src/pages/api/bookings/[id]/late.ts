import { api, idParam, json, readJson, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { bookingJson } from '#src/server/bookings/json.ts';
import { sendLateNotice } from '#src/server/bookings/late.ts';
import { lateSchema } from '#src/lib/contract/booking.ts';
import { idempotent } from '#src/server/idempotency.ts';

/** Tells the store the diner is on their way or running late; anyone else's booking is not found. */
export const POST = api(async (context) => {
  const { locals, params } = context;
  if (!locals.user) throw unauthorized();
  const actor = { kind: 'user' as const, userId: locals.user.id, email: locals.user.email, name: locals.user.name };
  const id = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async (request) => {
    const input = await readJson(request, locals.t, lateSchema);
    return json(bookingJson(await sendLateNotice(db, id, input, actor), locals));
  });
});
