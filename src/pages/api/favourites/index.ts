import { api, json, readQuery, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { listFavourites } from '#src/server/favourites.ts';
import { cardJson } from '#src/server/stores/json.ts';
import { partyQuerySchema } from '#src/server/stores/query.ts';

export const GET = api(async ({ locals, url }) => {
  if (!locals.user) throw unauthorized();
  const { party } = readQuery(url, locals.t, partyQuerySchema);
  const items = await listFavourites(await getDb(), locals.user.id, party);
  return json({ items: items.map((c) => ({ ...cardJson(c, locals.t), added_at: c.addedAt.toISOString() })) });
});
