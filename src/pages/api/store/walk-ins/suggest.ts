import { json, readQuery } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { suggestWalkIn } from '../../../../server/staff/walkIns';
import { walkInSuggestQuerySchema } from '../../../../lib/contract/staff';

/** The table a walk-in of `party_size` would be seated at now, and until when (`table` null when none is free). */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, walkInSuggestQuerySchema);
  return json(await suggestWalkIn(db, storeOf(scope, query.store_id), query.party_size));
});
