import { api, json, readJson, unauthorized } from '../../server/http/api';
import { signIn, signInSchema } from '../../server/auth';
import { getDb } from '../../server/db/startup';
import { hasForeignOrigin, siteOrigins } from '../../server/http/origin';
import { clearSessionCookie, revokeSession, setSessionCookie } from '../../server/sessions';

/** Sign-in (spec section 7): `{token, user_id}` for API clients, and the HttpOnly cookie for the browser. */
export const POST = api(async ({ request, locals, cookies }) => {
  const input = await readJson(request, locals.t, signInSchema);
  const db = await getDb();
  const result = await signIn(db, input, { ip: locals.clientAddress, userAgent: request.headers.get('user-agent') });
  if (!result) throw unauthorized('message.unauthorized');
  // Whatever session this browser had before is replaced, never reused.
  if (locals.sessionId) await revokeSession(db, locals.sessionId);
  setSessionCookie(cookies, locals, result.token, result.expiresAt);
  return json({ token: result.token, user_id: result.userId });
});

/**
 * Sign-out: always 204 (DESIGN §6), with or without headers; the session ends on the server and
 * the cookie is dropped — unless another site's page sent it (a forced sign-out ends nothing).
 */
export const DELETE = api(async ({ locals, cookies, request, url }) => {
  if (hasForeignOrigin(request, siteOrigins(url))) return new Response(null, { status: 204 });
  if (locals.sessionId) await revokeSession(await getDb(), locals.sessionId);
  clearSessionCookie(cookies, locals);
  return new Response(null, { status: 204 });
});
