import { ApiError, readQuery } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { isDraining } from '#src/server/live.ts';
import { admitStream, holdStream } from '#src/server/streamAdmission.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { openStoreStream } from '#src/server/staff/stream.ts';
import { storeQuerySchema } from '#src/lib/contract/staff.ts';

/** The store's bookings as they change, for the door tablet (Server-Sent Events, event `booking`). */
export const GET = storeApi(async ({ url, request, locals }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const storeId = storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id);
  if (isDraining()) throw new ApiError(503, 'shutting_down', 'live.shuttingDown', { headers: { 'retry-after': '1' } });
  // The same caps as the diners' streams (src/server/streamAdmission.ts).
  const ticket = admitStream(locals.clientAddress);
  const body = openStoreStream(db, storeId, { lastEventId: request.headers.get('last-event-id'), signal: request.signal });
  return new Response(holdStream(body, ticket), {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' },
  });
});
