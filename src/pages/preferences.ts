import type { APIRoute } from 'astro';
import { isLocale, LOCALE_COOKIE } from '../i18n/locales';
import { safeNext } from '../lib/routes';
import { translatorFor } from '../i18n';
import { setFlash } from '../server/http/flash';
import { cookieOptions } from '../server/http/cookies';

const YEAR = 60 * 60 * 24 * 365;

/** The locale switcher and theme toggle post here; works without JavaScript. */
export const POST: APIRoute = async ({ request, cookies, redirect, locals }) => {
  const form = await request.formData().catch(() => null);
  const locale = form?.get('locale');
  const theme = form?.get('theme');
  if (isLocale(locale)) {
    cookies.set(LOCALE_COOKIE, locale, cookieOptions(locals, { maxAge: YEAR, httpOnly: false }));
    // Confirmed in the language just chosen.
    setFlash(cookies, locals, { kind: 'success', message: translatorFor(locale)('locale.changed') });
  }
  if (theme === 'light' || theme === 'dark') {
    cookies.set('theme', theme, cookieOptions(locals, { maxAge: YEAR, httpOnly: false }));
    setFlash(cookies, locals, { kind: 'normal', message: locals.t(`theme.changed.${theme}`) });
  }
  return redirect(safeNext(form?.get('back')), 303);
};
