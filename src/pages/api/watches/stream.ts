import { api, ApiError, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { availabilityView } from '#src/server/availability/index.ts';
import { isDraining, openWatchStream } from '#src/server/live.ts';
import { admitStream, holdStream } from '#src/server/streamAdmission.ts';
import { requestOwnerKey } from '#src/server/watches/alerts.ts';
import { deviceWatchToken } from '#src/server/watches/http.ts';
import { loadOwnerWatches } from '#src/server/watches/matcher.ts';
import { clock } from '#src/server/clock.ts';

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
