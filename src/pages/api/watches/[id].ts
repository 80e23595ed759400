import { api, idParam, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { cancelWatch } from '../../../server/watches/service';
import { watchOwner } from '../../../server/watches/http';

/** Cancels one of the owner's watches; anyone else's is 404. */
export const DELETE = api(async ({ locals, params, request, cookies }) => {
  const owner = watchOwner(locals, request, cookies);
  if (!owner) throw unauthorized();
  await cancelWatch(await getDb(), idParam(params.id), owner);
  return new Response(null, { status: 204 });
});
