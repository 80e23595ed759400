import { api, idParam, notFound, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { addFavourite, removeFavourite } from '#src/server/favourites.ts';

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
