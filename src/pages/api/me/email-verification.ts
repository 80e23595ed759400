import { api, unauthorized } from '../../../server/http/api';
import { resendVerification } from '../../../server/emailVerification';
import { publicOrigin } from '../../../server/config';
import { getDb } from '../../../server/db/startup';

/** Sends the verification link again (202; 429 past the limit; an account already verified is mailed nothing). */
export const POST = api(async ({ locals }) => {
  if (!locals.user) throw unauthorized();
  await resendVerification(await getDb(), locals.t, locals.user.id, { ip: locals.clientAddress, origin: publicOrigin(), locale: locals.locale });
  return new Response(null, { status: 202 });
});
