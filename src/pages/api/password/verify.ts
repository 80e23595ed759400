import { api, readJson } from '../../../server/http/api';
import { invalidLink, linkTokenSchema, resetLinkIsValid } from '../../../server/auth';
import { getDb } from '../../../server/db/startup';

/** Lets the reset screen say whether its link still works before the user types a password. */
export const POST = api(async ({ request, locals }) => {
  const { token } = await readJson(request, locals.t, linkTokenSchema);
  if (!(await resetLinkIsValid(await getDb(), token))) throw invalidLink();
  return new Response(null, { status: 204 });
});
