import { api, json, readQuery, unauthorized } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { listHistory } from '#src/server/history.ts';
import { cardJson } from '#src/server/stores/json.ts';
import { partyQuerySchema } from '#src/server/stores/query.ts';

/** Viewing history, newest first. */
export const GET = api(async ({ locals, url }) => {
  if (!locals.user) throw unauthorized();
  const { party } = readQuery(url, locals.t, partyQuerySchema);
  const items = await listHistory(await getDb(), locals.user.id, party);
  return json({ items: items.map((c) => ({ ...cardJson(c, locals.t), viewed_at: c.viewedAt.toISOString() })) });
});
