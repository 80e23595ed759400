import { api, readJson } from '#src/server/http/api.ts';
import { invalidLink, linkTokenSchema, resetLinkIsValid } from '#src/server/auth.ts';
import { getDb } from '#src/server/db/startup.ts';

/** Lets the reset screen say whether its link still works before the user types a password. */
export const POST = api(async ({ request, locals }) => {
  const { token } = await readJson(request, locals.t, linkTokenSchema);
  if (!(await resetLinkIsValid(await getDb(), token))) throw invalidLink();
  return new Response(null, { status: 204 });
});
