import { api, idParam, unauthorized } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { unsubscribe } from '../../../../server/push/service';
import { pushOwner } from '../../../../server/push/http';

/** Stops notifications to one of the owner's devices; anyone else's is 404. */
export const DELETE = api(async ({ locals, params, request, cookies }) => {
  const owner = pushOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  await unsubscribe(await getDb(), idParam(params.id), owner);
  return new Response(null, { status: 204 });
});
