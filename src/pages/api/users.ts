import { api, json, readJson } from '../../server/http/api';
import { signUp, signUpSchema } from '../../server/auth';
import { publicOrigin } from '../../server/config';
import { getDb } from '../../server/db/startup';

/**
 * Sign-up: 201 `{}` and no cookie, whether or not the address already has an account, so neither
 * the body nor a session tells anyone which addresses do. A new account is mailed its verification
 * link (which signs it in); the owner of an existing one is mailed that someone tried.
 */
export const POST = api(async ({ request, locals }) => {
  const input = await readJson(request, locals.t, signUpSchema);
  const client = { ip: locals.clientAddress, userAgent: request.headers.get('user-agent'), origin: publicOrigin(), locale: locals.locale };
  await signUp(await getDb(), locals.t, input, client);
  return json({}, { status: 201 });
});
