import { api, json, readQuery } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { dayBookings } from '../../../../server/staff/dayBookings';
import { businessDate } from '../../../../server/availability';
import { storeDayQuerySchema, type StoreDayJson } from '../../../../lib/contract/store';
import { clock } from '../../../../server/clock';

/** The business day's bookings at one of the staff's stores (party, table, contact, note), the latest change first. */
export const GET = api(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, storeDayQuerySchema);
  const storeId = storeOf(scope, query.store_id);
  const date = query.date ?? businessDate(clock.now());
  const answer: StoreDayJson = { store_id: storeId, date, items: await dayBookings(db, storeId, date) };
  return json(answer);
});
