import { json, readQuery } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { feeList, monthOf } from '../../../../server/staff/fees';
import { storeFeeQuerySchema } from '../../../../lib/contract/staff';
import { clock } from '../../../../server/clock';

/** The cancellation and no-show fees owed for one month's bookings at one of the staff's stores, with the month's totals by state. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, storeFeeQuerySchema);
  const storeId = storeOf(scope, query.store_id);
  return json(await feeList(db, storeId, query.month ?? monthOf(clock.now()), query.state));
});
