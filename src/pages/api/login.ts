import { api, ApiError, json, readJson, unauthorized } from '../../server/http/api';
import { signIn, signInSchema } from '../../server/auth';
import { getDb } from '../../server/db/startup';
import { hasForeignOrigin, siteOrigins } from '../../server/http/origin';
import { trustedOrigins } from '../../server/http/cors';
import { clearSessionCookie, hashToken, revokeSession, setSessionCookie } from '../../server/sessions';
import { adminSignedIn, staffSignedIn } from '../../server/staff/signIn';
import type { LoginAnswer } from '../../lib/contract/staff';
import { setFlash } from '../../server/http/flash';
import { completePendingLink } from '../../server/oidc';

/**
 * Sign-in (spec section 7); on the store host, staff only (a diner's account: 403): `{token, user_id}` for API clients, and the HttpOnly cookie for the
 * browser; with the auth state's `tenant` and `store_id`, set for store staff (null for diners).
 */
export const POST = api(async ({ request, locals, cookies }) => {
  const input = await readJson(request, locals.t, signInSchema);
  const db = await getDb();
  const result = await signIn(db, input, { ip: locals.clientAddress, userAgent: request.headers.get('user-agent') });
  if (!result) throw unauthorized('message.unauthorized');
  const staff = await staffSignedIn(db, result.userId);
  // The store host signs in staff and the platform's admins only (its cookie is the store host's own session cookie).
  if (locals.site === 'store' && !staff && !(await adminSignedIn(db, result.userId))) {
    await revokeSession(db, hashToken(result.token));
    throw new ApiError(403, 'forbidden', 'storehost.signin.dinerAccount');
  }
  // Whatever session this browser had before is replaced, never reused.
  if (locals.sessionId) await revokeSession(db, locals.sessionId);
  setSessionCookie(cookies, locals, result.token, result.expiresAt);
  // A provider account waiting in this browser for this very sign-in is linked now.
  if (locals.site !== 'store') await completePendingLink(db, cookies, locals, locals.t, result.userId);
  const answer: LoginAnswer = {
    token: result.token,
    user_id: result.userId,
    tenant: staff?.tenant ?? null,
    store_id: staff?.storeIds[0] ?? null,
    store_ids: staff?.storeIds ?? [],
  };
  return json(answer);
});

/**
 * Sign-out: always 204 (DESIGN §6), with or without headers; the session ends on the server and
 * the cookie is dropped — unless another site's page sent it (a forced sign-out ends nothing).
 */
export const DELETE = api(async ({ locals, cookies, request, url }) => {
  if (hasForeignOrigin(request, trustedOrigins(url, siteOrigins(url)))) return new Response(null, { status: 204 });
  const signedIn = Boolean(locals.sessionId);
  if (locals.sessionId) await revokeSession(await getDb(), locals.sessionId);
  clearSessionCookie(cookies, locals);
  // The next page the browser opens says so (the button goes to /home), not a silent change.
  if (signedIn) setFlash(cookies, locals, { kind: 'success', message: locals.t('account.info.signedOut') });
  return new Response(null, { status: 204 });
});
