import { api, readJson } from '#src/server/http/api.ts';
import { forgotSchema, requestPasswordReset } from '#src/server/auth.ts';
import { getDb } from '#src/server/db/startup.ts';
import { publicOrigin } from '#src/server/config.ts';

/** 202 whether or not the address has an account, so the answer reveals nothing. */
export const POST = api(async ({ request, locals }) => {
  const { email } = await readJson(request, locals.t, forgotSchema);
  await requestPasswordReset(await getDb(), locals.t, email, { ip: locals.clientAddress, origin: publicOrigin(), locale: locals.locale });
  return new Response(null, { status: 202 });
});
