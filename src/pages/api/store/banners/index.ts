import { json, readJson, readQuery, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope, storeOf } from '../../../../server/staff/access';
import { createBanner, listBanners } from '../../../../server/staff/banners';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { businessDate } from '../../../../server/availability';
import { clock } from '../../../../server/clock';
import { bannerSchema, storeQuerySchema } from '../../../../lib/contract/staff';

/** The store's campaign banners: current and upcoming, then the latest past ones. */
export const GET = storeApi(async ({ locals, url }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const storeId = storeOf(scope, readQuery(url, locals.t, storeQuerySchema).store_id);
  const now = clock.now();
  return json({ store_id: storeId, today: businessDate(now), items: await listBanners(db, storeId, now) });
});

/** Schedules a banner for the diner home. */
export const POST = storeApi(async ({ locals, request }) => {
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, bannerSchema);
  return json(await withinStaffLimits(db, scope, () => createBanner(db, translate(locals.t), scope, input)), { status: 201 });
});
