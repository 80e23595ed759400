import { api, json, readJson } from '../../server/http/api';
import { signUp, signUpSchema } from '../../server/auth';
import { publicOrigin } from '../../server/config';
import { getDb } from '../../server/db/startup';
import { setSessionCookie } from '../../server/sessions';

/**
 * Sign-up: 201 `{}` whether or not the address already has an account, so the answer tells no
 * one which addresses do; a new account is signed in, an existing one's owner is mailed instead.
 */
export const POST = api(async ({ request, locals, cookies }) => {
  const input = await readJson(request, locals.t, signUpSchema);
  const client = { ip: locals.clientAddress, userAgent: request.headers.get('user-agent'), origin: publicOrigin(), locale: locals.locale };
  const result = await signUp(await getDb(), locals.t, input, client);
  if (result) setSessionCookie(cookies, locals, result.token, result.expiresAt);
  return json({}, { status: 201 });
});
