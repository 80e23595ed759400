import { api, idParam, json, readJson, unauthorized } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { bookingJson } from '../../../../server/bookings/json';
import { sendLateNotice } from '../../../../server/bookings/late';
import { lateSchema } from '../../../../lib/contract/booking';
import { idempotent } from '../../../../server/idempotency';

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
