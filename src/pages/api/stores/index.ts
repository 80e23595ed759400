import { api, json, validate } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { listQueryParams, listQuerySchema } from '#src/server/stores/query.ts';
import { searchStores } from '#src/server/stores/search.ts';
import { storePageJson } from '#src/server/stores/json.ts';

/** Stores that can seat the party within the hour, then those later today and on another day (DESIGN §6). */
export const GET = api(async ({ url, locals }) => {
  const query = validate(locals.t, listQuerySchema, listQueryParams(url));
  return json(storePageJson(await searchStores(await getDb(), query), locals.t));
});
