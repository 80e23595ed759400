import { api, ApiError, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { availabilityView } from '../../../server/availability';
import { isDraining, openWatchStream } from '../../../server/live';
import { admitStream, holdStream } from '../../../server/streamAdmission';
import { requestOwnerKey } from '../../../server/watches/alerts';
import { deviceWatchToken } from '../../../server/watches/http';
import { loadOwnerWatches } from '../../../server/watches/matcher';
import { clock } from '../../../server/clock';

/** The signed-in diner's (or this guest device's) watch alerts, as they happen (Server-Sent Events). */
export const GET = api(async ({ request, locals, cookies }) => {
  const owner = requestOwnerKey(locals.user?.id ?? null, deviceWatchToken(request, cookies));
  if (!owner) throw unauthorized();
  if (isDraining()) throw new ApiError(503, 'shutting_down', 'live.shuttingDown', { headers: { 'retry-after': '1' } });
  // The matcher finds the alerts in the availability index's changes: make sure this process holds
  // this owner's watches (made through any instance) and an index (the first listing request builds it otherwise).
  const db = await getDb();
  await loadOwnerWatches(db, owner);
  void availabilityView(db, clock.now());
  const ticket = admitStream(locals.clientAddress);
  let body: ReadableStream<Uint8Array>;
  try {
    body = await openWatchStream(owner, { signal: request.signal, requestId: locals.requestId });
  } catch (error) {
    ticket.release();
    throw error;
  }
  return new Response(holdStream(body, ticket), {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' },
  });
});
