/**
 * Staff (or the platform's admins) signing in on the store host's own forms (no JavaScript needed):
 * the diners' sign-in service (limits, timing, a fresh session), then the role check — a diner's
 * account, or an admin's on the staff form and the other way round, is refused
 * and its new session ended at once, so it never holds a store-host session even for a moment.
 */
import type { AstroCookies } from 'astro';
import type { T } from '../../i18n';
import { signIn, signInSchema } from '../auth';
import { getDb } from '../db/startup';
import { formError, readForm } from '../http/form';
import { hashToken, revokeSession, setSessionCookie, type Site } from '../sessions';
import { adminSignedIn, staffSignedIn } from './signIn';
import { ADMIN_HOME_PATH, safeNext, STORE_HOME_PATH } from '../../lib/routes';

export type StaffSignIn = { ok: true } | { ok: false; status: number; email: string; error: string | null; fields: Record<string, string> };

export async function staffSignInForm(
  /** Who this form is for: store staff (/store-signin) or the platform's admins (/admin-signin). */
  kind: 'staff' | 'admin',
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
    const allowed = kind === 'staff' ? await staffSignedIn(db, result.userId) : await adminSignedIn(db, result.userId);
    if (!allowed) {
      await revokeSession(db, hashToken(result.token));
      return { ok: false, status: 403, email, error: t(kind === 'staff' ? 'storehost.signin.dinerAccount' : 'admin.signin.notAdmin'), fields: {} };
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

/** What a sign-in page draws: the address typed and, after a refusal, why. */
export interface SignInShown {
  email: string;
  error: string | null;
  fields: Record<string, string>;
}

/**
 * The POST handling of /store-signin and /admin-signin: signed in, a redirect to `?next=` (only a
 * path on the site) or the kind's home; refused, the form's state and the refusal's status; a GET
 * draws the empty form.
 */
export async function signInPage(
  kind: 'staff' | 'admin',
  page: { request: Request; url: URL; locals: App.Locals; cookies: AstroCookies; response: { status?: number }; redirect(path: string, status: 303): Response },
): Promise<Response | SignInShown> {
  if (page.request.method !== 'POST') return { email: '', error: null, fields: {} };
  const result = await staffSignInForm(kind, page.request, page.locals, page.cookies);
  if (result.ok) return page.redirect(safeNext(page.url.searchParams.get('next'), kind === 'admin' ? ADMIN_HOME_PATH : STORE_HOME_PATH), 303);
  page.response.status = result.status;
  return { email: result.email, error: result.error, fields: result.fields };
}
