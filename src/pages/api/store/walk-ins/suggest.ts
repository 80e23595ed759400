import { json, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { suggestWalkIn } from '#src/server/staff/walkIns.ts';
import { walkInSuggestQuerySchema } from '#src/lib/contract/staff.ts';

/** The table a walk-in of `party_size` would be seated at now, and until when (`table` null when none is free). */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const query = readQuery(url, locals.t, walkInSuggestQuerySchema);
  return json(await suggestWalkIn(db, storeOf(scope, query.store_id), query.party_size));
});
