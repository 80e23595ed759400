import * as z from 'zod/mini';
import { api, readJson } from '../../server/http/api';
import { tokenSchema } from '../../server/auth';
import { verifyEmail } from '../../server/emailVerification';
import { getDb } from '../../server/db/startup';
import { createSession, setSessionCookie } from '../../server/sessions';

const verifySchema = z.object({ token: tokenSchema });

/**
 * Uses the mailed verification link: the address is verified and whoever holds the link is signed
 * in (it reached the account's mailbox). 400 `invalid_link` for a used, expired or unknown link.
 */
export const POST = api(async ({ request, locals, cookies }) => {
  const { token } = await readJson(request, locals.t, verifySchema);
  const db = await getDb();
  const userId = await verifyEmail(db, token);
  const session = await createSession(db, userId, request.headers.get('user-agent'));
  setSessionCookie(cookies, locals, session.token, session.expiresAt);
  return new Response(null, { status: 204 });
});
