import { api, unauthorized } from '#src/server/http/api.ts';
import { resendVerification } from '#src/server/emailVerification.ts';
import { publicOrigin } from '#src/server/config.ts';
import { getDb } from '#src/server/db/startup.ts';

/** Sends the verification link again (202; 429 past the limit; an account already verified is mailed nothing). */
export const POST = api(async ({ locals }) => {
  if (!locals.user) throw unauthorized();
  await resendVerification(await getDb(), locals.t, locals.user.id, { ip: locals.clientAddress, origin: publicOrigin(), locale: locals.locale });
  return new Response(null, { status: 202 });
});
