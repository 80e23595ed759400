import { api, idParam, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { cancelWatch } from '#src/server/watches/service.ts';
import { watchOwner } from '#src/server/watches/http.ts';

/** Cancels one of the owner's watches; anyone else's is 404. */
export const DELETE = api(async ({ locals, params, request, cookies }) => {
  const owner = watchOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  await cancelWatch(await getDb(), idParam(params.id), owner);
  return new Response(null, { status: 204 });
});
