import { api, idParam, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { removeView } from '#src/server/history.ts';

export const DELETE = api(async ({ locals, params }) => {
  if (!locals.user) throw unauthorized();
  await removeView(await getDb(), locals.user.id, idParam(params.storeId));
  return new Response(null, { status: 204 });
});
