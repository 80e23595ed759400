import { api, idParam, json, notFound, readQuery } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { daySlots } from '#src/server/availability/index.ts';
import { availabilityQuerySchema } from '#src/server/stores/query.ts';
import { slotJson } from '#src/server/stores/json.ts';
import { feePolicyOf } from '#src/server/bookings/pages.ts';
import { withFees } from '#src/server/bookings/fee.ts';
import { clock } from '#src/server/clock.ts';

/**
 * Starts of one day (JST business day) with free-table counts for the party (at tables of the seat
 * kind asked for) and the cancellation fee a booking of each made now carries (or, with
 * `offer=change`, a booking moved to it); never a past start.
 */
export const GET = api(async ({ params, url, locals }) => {
  const id = idParam(params.id);
  const now = clock.now();
  const { date, party, seat, offer } = readQuery(url, locals.t, availabilityQuerySchema(now));
  const db = await getDb();
  const [slots, policy] = await Promise.all([daySlots(db, id, date, party, now, seat), feePolicyOf(db, id)]);
  if (!slots || !policy) throw notFound();
  return json({ date, party, ...(seat ? { seat } : {}), slots: withFees(slots.map(slotJson), policy, party, now, locals, offer) });
});
