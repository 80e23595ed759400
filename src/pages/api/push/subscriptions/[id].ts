import { api, idParam, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { unsubscribe } from '#src/server/push/service.ts';
import { pushOwner } from '#src/server/push/http.ts';

/** Stops notifications to one of the owner's devices; anyone else's is 404. */
export const DELETE = api(async ({ locals, params, request, cookies }) => {
  const owner = pushOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  await unsubscribe(await getDb(), idParam(params.id), owner);
  return new Response(null, { status: 204 });
});
