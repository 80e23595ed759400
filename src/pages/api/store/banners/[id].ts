import { idParam, json, readJson, translate } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { staffScope } from '#src/server/staff/access.ts';
import { deleteBanner, getBanner, updateBanner } from '#src/server/staff/banners.ts';
import { withinStaffLimits } from '#src/server/staff/limits.ts';
import { bannerPatchSchema } from '#src/lib/contract/staff.ts';

/** One banner; another store's is 404. */
export const GET = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  return json(await getBanner(db, scope, id));
});

/** Changes a banner's text, link or days. */
export const PATCH = storeApi(async ({ locals, params, request }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  const input = await readJson(request, locals.t, bannerPatchSchema);
  return json(await withinStaffLimits(db, scope, () => updateBanner(db, translate(locals.t), scope, id, input)));
});

/** Deletes a banner: 204. */
export const DELETE = storeApi(async ({ locals, params }) => {
  const id = idParam(params.id);
  const db = await getDb();
  const scope = await staffScope(db, locals.user);
  await withinStaffLimits(db, scope, () => deleteBanner(db, scope, id));
  return new Response(null, { status: 204 });
});
