import { api, json, readQuery, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { listFavourites } from '../../../server/favourites';
import { cardJson } from '../../../server/stores/json';
import { partyQuerySchema } from '../../../server/stores/query';

export const GET = api(async ({ locals, url }) => {
  if (!locals.user) throw unauthorized();
  const { party } = readQuery(url, locals.t, partyQuerySchema);
  const items = await listFavourites(await getDb(), locals.user.id, party);
  return json({ items: items.map((c) => ({ ...cardJson(c, locals.t), added_at: c.addedAt.toISOString() })) });
});
