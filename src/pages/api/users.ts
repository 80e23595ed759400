import { api, json, readJson } from '../../server/http/api';
import { signUp, signUpSchema } from '../../server/auth';
import { getDb } from '../../server/db/startup';
import { setSessionCookie } from '../../server/sessions';

/** Sign-up: 201 `{user_id}` and signed in; 409 when the address already has an account. */
export const POST = api(async ({ request, locals, cookies }) => {
  const input = await readJson(request, locals.t, signUpSchema);
  const result = await signUp(await getDb(), locals.t, input, { ip: locals.clientAddress, userAgent: request.headers.get('user-agent') });
  setSessionCookie(cookies, locals, result.token, result.expiresAt);
  return json({ user_id: result.userId }, { status: 201 });
});
