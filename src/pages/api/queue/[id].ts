import { api, idParam, json } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { queueActor } from '#src/server/queue/http.ts';
import { getEntry, leaveQueue } from '#src/server/queue/service.ts';

/** One's 順番待ち entry: its state, the parties ahead and the estimated wait; anyone else's is not found. */
export const GET = api(async (context) => {
  return json(await getEntry(await getDb(), idParam(context.params.id), queueActor(context)), { headers: { 'cache-control': 'no-store' } });
});

/** Leaves the queue (waiting or called): the entry is canceled; leaving again is 409 `queue_state`. */
export const DELETE = api(async (context) => json(await leaveQueue(await getDb(), idParam(context.params.id), queueActor(context))));
