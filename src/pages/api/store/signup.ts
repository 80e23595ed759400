import { json, readJson } from '#src/server/http/api.ts';
import { storeApi } from '#src/server/staff/http.ts';
import { getDb } from '#src/server/db/startup.ts';
import { acceptInvitation, signupSchema } from '#src/server/staff/invitations.ts';
import { revokeSession, setSessionCookie } from '#src/server/sessions.ts';
import type { LoginAnswer } from '#src/lib/contract/staff.ts';

/**
 * Takes up an invitation: the staff account for the invited address, signed in (the login's
 * answer and cookie). 400 `invalid_link` for a link unknown, spent or out of date; 409 when the
 * address already has an account.
 */
export const POST = storeApi(async ({ locals, request, cookies }) => {
  const db = await getDb();
  const input = await readJson(request, locals.t, signupSchema);
  const made = await acceptInvitation(db, locals.t, input, { ip: locals.clientAddress, userAgent: request.headers.get('user-agent') });
  if (locals.sessionId) await revokeSession(db, locals.sessionId);
  setSessionCookie(cookies, locals, made.token, made.expiresAt);
  const answer: LoginAnswer = { token: made.token, user_id: made.userId, tenant: made.tenant, store_id: made.storeIds[0] ?? null, store_ids: made.storeIds };
  return json(answer, { status: 201 });
});
