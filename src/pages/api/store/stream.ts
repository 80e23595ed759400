import { ApiError, readQuery } from '../../../server/http/api';
import { storeApi } from '../../../server/staff/http';
import { getDb } from '../../../server/db/startup';
import { isDraining } from '../../../server/live';
import { admitStream, holdStream } from '../../../server/streamAdmission';
import { staffScope, storeOf } from '../../../server/staff/access';
import { openStoreStream } from '../../../server/staff/stream';
import { storeQuerySchema } from '../../../lib/contract/staff';

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
