import type { APIRoute } from 'astro';
import { getDb } from '../../server/db/startup';
import { setFlash } from '../../server/http/flash';
import { clearSessionCookie, revokeSession } from '../../server/sessions';
import { STORE_SIGNIN_PATH } from '../../lib/routes';

/** The store host's sign-out button: the session ends on the server, then back to sign-in. */
export const POST: APIRoute = async ({ locals, cookies, redirect }) => {
  if (locals.sessionId) await revokeSession(await getDb(), locals.sessionId);
  clearSessionCookie(cookies, locals);
  setFlash(cookies, locals, { kind: 'success', message: locals.t('storehost.signout.done') });
  return redirect(STORE_SIGNIN_PATH, 303);
};

export const GET: APIRoute = ({ redirect }) => redirect(STORE_SIGNIN_PATH, 302);
