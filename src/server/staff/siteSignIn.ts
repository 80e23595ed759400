/**
 * Staff signing in on the store host's own form (no JavaScript needed): the diners' sign-in
 * service (limits, timing, a fresh session), then the staff check — a diner's account is refused
 * and its new session ended at once, so it never holds a store-host session even for a moment.
 */
import type { AstroCookies } from 'astro';
import type { T } from '../../i18n';
import { signIn, signInSchema } from '../auth';
import { getDb } from '../db/startup';
import { formError, readForm } from '../http/form';
import { hashToken, revokeSession, setSessionCookie, type Site } from '../sessions';
import { staffSignedIn } from './signIn';

export type StaffSignIn = { ok: true } | { ok: false; status: number; email: string; error: string | null; fields: Record<string, string> };

export async function staffSignInForm(
  request: Request,
  locals: { t: T; clientAddress: string; secure: boolean; site: Site; sessionId: string | null },
  cookies: AstroCookies,
): Promise<StaffSignIn> {
  const { t } = locals;
  const form = await readForm(request, t, signInSchema);
  const email = form.values.email ?? '';
  if (!form.ok) return { ok: false, status: form.status, email, error: form.message ?? null, fields: form.fields };
  const db = await getDb();
  try {
    const result = await signIn(db, form.data, { ip: locals.clientAddress, userAgent: request.headers.get('user-agent') });
    if (!result) return { ok: false, status: 401, email, error: t('message.unauthorized'), fields: {} };
    if (!(await staffSignedIn(db, result.userId))) {
      await revokeSession(db, hashToken(result.token));
      return { ok: false, status: 403, email, error: t('storehost.signin.dinerAccount'), fields: {} };
    }
    // Whatever session this browser had here before is replaced, never reused.
    if (locals.sessionId) await revokeSession(db, locals.sessionId);
    setSessionCookie(cookies, locals, result.token, result.expiresAt);
    return { ok: true };
  } catch (error) {
    const failed = formError(t, error, form.values);
    return { ok: false, status: failed.status, email, error: failed.message ?? null, fields: failed.fields };
  }
}
