import * as z from 'zod/mini';
import { api, ApiError, readJson } from '../../../server/http/api';
import { getDb } from '../../../server/db/startup';
import { confirmWatch } from '../../../server/watches/service';
import { TOKEN_MAX } from '../../../lib/contract/limits';

const confirmSchema = z.object({ token: z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX)) });

/** Confirms a guest's address from the link mailed to it; from then on the watch may mail it. */
export const POST = api(async ({ locals, request }) => {
  const { token } = await readJson(request, locals.t, confirmSchema);
  if (!(await confirmWatch(await getDb(), token))) throw new ApiError(400, 'invalid_link', 'watch.confirm.invalid');
  return new Response(null, { status: 204 });
});
