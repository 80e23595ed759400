import { api, idParam, json, notFound, readQuery } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { daySlots } from '../../../../server/availability';
import { availabilityQuerySchema, slotJson } from '../../../../server/stores';

/** Starts of one day (JST business day) with free-table counts for the party (at tables of the seat kind asked for); never a past start. */
export const GET = api(async ({ params, url, locals }) => {
  const id = idParam(params.id);
  const now = new Date();
  const { date, party, seat } = readQuery(url, locals.t, availabilityQuerySchema(now));
  const slots = await daySlots(await getDb(), id, date, party, now, seat);
  if (!slots) throw notFound();
  return json({ date, party, ...(seat ? { seat } : {}), slots: slots.map(slotJson) });
});
