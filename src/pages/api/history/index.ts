import { api, json, readQuery, unauthorized } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { listHistory } from '../../../server/history';
import { cardJson } from '../../../server/stores/json';
import { partyQuerySchema } from '../../../server/stores/query';

/** Viewing history, newest first. */
export const GET = api(async ({ locals, url }) => {
  if (!locals.user) throw unauthorized();
  const { party } = readQuery(url, locals.t, partyQuerySchema);
  const items = await listHistory(await getDb(), locals.user.id, party);
  return json({ items: items.map((c) => ({ ...cardJson(c, locals.t), viewed_at: c.viewedAt.toISOString() })) });
});
