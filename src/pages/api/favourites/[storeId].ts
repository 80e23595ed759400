import { api, idParam, notFound, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { addFavourite, removeFavourite } from '../../../server/favourites';

export const PUT = api(async ({ locals, params }) => {
  if (!locals.user) throw unauthorized();
  const storeId = idParam(params.storeId);
  if (!(await addFavourite(await getDb(), locals.user.id, storeId))) throw notFound();
  return new Response(null, { status: 204 });
});

export const DELETE = api(async ({ locals, params }) => {
  if (!locals.user) throw unauthorized();
  const storeId = idParam(params.storeId);
  if (!(await removeFavourite(await getDb(), locals.user.id, storeId))) throw notFound();
  return new Response(null, { status: 204 });
});
