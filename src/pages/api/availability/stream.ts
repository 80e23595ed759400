import { api, readQuery, ApiError } from '#src/server/http/api.ts';
import { isDraining, openAvailabilityStream, streamQuerySchema } from '#src/server/live.ts';
import { admitStream, holdStream } from '#src/server/streamAdmission.ts';

/** Live free-table counts for the stores on screen (Server-Sent Events, see src/server/live.ts). */
export const GET = api(async ({ url, request, locals }) => {
  const query = readQuery(url, locals.t, streamQuerySchema);
  if (isDraining()) throw new ApiError(503, 'shutting_down', 'live.shuttingDown', { headers: { 'retry-after': '1' } });
  // Capped per client and per process, and ended after its lifetime (src/server/streamAdmission.ts).
  const ticket = admitStream(locals.clientAddress);
  let body: ReadableStream<Uint8Array>;
  try {
    body = await openAvailabilityStream(query, { lastEventId: request.headers.get('last-event-id'), signal: request.signal, requestId: locals.requestId });
  } catch (error) {
    ticket.release();
    throw error;
  }
  return new Response(holdStream(body, ticket), {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      // nginx and similar proxies buffer responses unless told not to.
      'x-accel-buffering': 'no',
    },
  });
});
