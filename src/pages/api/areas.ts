import { api, json } from '../../server/http/api';
import { getDb } from '../../server/db/startup';
import { listAreas } from '../../server/stores/areas';

export const GET = api(async () => {
  const rows = await listAreas(await getDb());
  return json(rows.map((a) => ({ id: a.id, slug: a.slug, name: a.name, store_count: a.storeCount })));
});
