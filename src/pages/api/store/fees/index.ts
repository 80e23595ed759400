import { json, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { feeList, monthOf } from '#src/server/staff/fees.ts';
import { storeFeeQuerySchema } from '#src/lib/contract/staff.ts';
import { clock } from '#src/server/clock.ts';

/** The cancellation and no-show fees owed for one month's bookings at one of the staff's stores, with the month's totals by state. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, storeFeeQuerySchema);
  const storeId = storeOf(scope, query.store_id);
  return json(await feeList(db, storeId, query.month ?? monthOf(clock.now()), query.state));
});
