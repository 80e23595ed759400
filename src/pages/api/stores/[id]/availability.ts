import { z } from 'zod';
import { api, idParam, json, notFound, readQuery } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/client';
import { bookableDates, MAX_PARTY, storeDaySlots } from '../../../../server/availability';
import { toTokyoIso } from '../../../../lib/datetime';

const query = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  party: z.coerce.number().int().min(1).max(MAX_PARTY).default(2),
});

/** The starts of one business day (JST) for a party, with free tables; never a past slot (DESIGN §6). */
export const GET = api(async ({ params, url, locals }) => {
  const id = idParam(params.id);
  const { date, party } = readQuery(url, locals.t, query);
  const now = new Date();
  if (!bookableDates(now).includes(date)) return json({ slots: [] });
  const slots = await storeDaySlots(await getDb(), id, date, party, now);
  if (!slots) throw notFound();
  return json({ slots: slots.map((s) => ({ start: toTokyoIso(s.start), end: toTokyoIso(s.end), free_tables: s.freeTables })) });
});
