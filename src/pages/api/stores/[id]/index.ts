import { api, idParam, json, notFound } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { getStore } from '#src/server/stores/detail.ts';
import { storeJson } from '#src/server/stores/json.ts';

export const GET = api(async ({ locals, params }) => {
  const store = await getStore(await getDb(), idParam(params.id));
  if (!store) throw notFound();
  return json(storeJson(store, locals.t));
});
