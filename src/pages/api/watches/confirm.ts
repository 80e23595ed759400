import { api, ApiError, readJson } from '#src/server/http/api.ts';
import { getDb } from '#src/server/db/startup.ts';
import { confirmWatch } from '#src/server/watches/service.ts';
import { linkTokenSchema } from '#src/server/auth.ts';

/** Confirms a guest's address from the link mailed to it; from then on the watch may mail it. */
export const POST = api(async ({ locals, request }) => {
  const { token } = await readJson(request, locals.t, linkTokenSchema);
  if (!(await confirmWatch(await getDb(), token))) throw new ApiError(400, 'invalid_link', 'watch.confirm.invalid');
  return new Response(null, { status: 204 });
});
