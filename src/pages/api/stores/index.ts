import { api, json, validate } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { listQueryParams, listQuerySchema } from '../../../server/stores/query';
import { searchStores } from '../../../server/stores/search';
import { storePageJson } from '../../../server/stores/json';

/** Stores that can seat the party within the hour, then those later today and on another day (DESIGN §6). */
export const GET = api(async ({ url, locals }) => {
  const query = validate(locals.t, listQuerySchema, listQueryParams(url));
  return json(storePageJson(await searchStores(await getDb(), query), locals.t));
});
