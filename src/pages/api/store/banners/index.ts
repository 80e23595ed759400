import { json, readJson, readQuery, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope, storeOf } from '#src/server/staff/access.ts';
import { createBanner, listBanners } from '#src/server/staff/banners.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { businessDate } from '#src/server/availability/index.ts';
import { clock } from '#src/server/clock.ts';
import { bannerSchema, storeQuerySchema } from '#src/lib/contract/staff.ts';

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
