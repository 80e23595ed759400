import { api, idParam, json, notFound } from '../../../../server/http/api';
import { getDb } from '../../../../server/db/startup';
import { getStore } from '../../../../server/stores/detail';
import { storeJson } from '../../../../server/stores/json';

export const GET = api(async ({ locals, params }) => {
  const store = await getStore(await getDb(), idParam(params.id));
  if (!store) throw notFound();
  return json(storeJson(store, locals.t));
});
