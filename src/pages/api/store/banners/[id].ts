import { idParam, json, readJson, translate } from '../../../../server/http/api';
import { storeApi } from '../../../../server/staff/http';
import { getDb } from '../../../../server/db/startup';
import { staffScope } from '../../../../server/staff/access';
import { deleteBanner, getBanner, updateBanner } from '../../../../server/staff/banners';
import { withinStaffLimits } from '../../../../server/staff/limits';
import { bannerPatchSchema } from '../../../../lib/contract/staff';

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
