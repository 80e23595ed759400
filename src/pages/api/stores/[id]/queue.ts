import { api, idParam, json, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { joinFor, queueActor } from '#src/server/queue/http.ts';
import { getEntry } from '#src/server/queue/service.ts';
import { queueJoinSchema, queuePaths } from '#src/lib/contract/queue.ts';
import { idempotent } from '#src/server/idempotency.ts';

/**
 * Joins the store's 順番待ち, signed in or as a guest: 201 with the entry and, for a guest, its token
 * (once; the browser also gets it as an HttpOnly cookie on the entry's paths). 409 `queue_closed`
 * while a start within the hour is free, 409 `too_many_queues` past the diner's limit, 429 past the
 * booking limits.
 */
export const POST = api(async (context) => {
  const { locals, params } = context;
  const storeId = idParam(params.id);
  const db = await getDb();
  return idempotent(db, context, async (request) => {
    const input = await readJson(request, locals.t, queueJoinSchema);
    const { id, token } = await joinFor(db, storeId, input, context);
    const entry = await getEntry(db, id, { ...queueActor(context), token });
    return json({ entry, token }, { status: 201, headers: { location: queuePaths.api(id) } });
  });
});
