import { api, ApiError, readJson } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { confirmWatch } from '../../../server/watches/service';
import { linkTokenSchema } from '../../../server/auth';

/** Confirms a guest's address from the link mailed to it; from then on the watch may mail it. */
export const POST = api(async ({ locals, request }) => {
  const { token } = await readJson(request, locals.t, linkTokenSchema);
  if (!(await confirmWatch(await getDb(), token))) throw new ApiError(400, 'invalid_link', 'watch.confirm.invalid');
  return new Response(null, { status: 204 });
});
