import { api, idParam, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { removeView } from '../../../server/history';

export const DELETE = api(async ({ locals, params }) => {
  if (!locals.user) throw unauthorized();
  await removeView(await getDb(), locals.user.id, idParam(params.storeId));
  return new Response(null, { status: 204 });
});
