import { api, json, validate } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { cardJson, listQueryParams, listQuerySchema, searchStores } from '../../../server/stores';

/** Stores that can seat the party within the hour (DESIGN §6). */
export const GET = api(async ({ url, locals }) => {
  const query = validate(locals.t, listQuerySchema, listQueryParams(url));
  const page = await searchStores(await getDb(), query);
  return json({ items: page.items.map((c) => cardJson(c, locals.t)), page: page.page, per_page: page.perPage, total: page.total });
});
