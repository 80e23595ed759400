import type { APIRoute } from 'astro';
import { isLocale, LOCALE_COOKIE } from '../i18n/locales';
import { safeNext } from '../lib/routes';
import { translatorFor } from '../i18n';
import { setFlash } from '../server/http/flash';

const YEAR = 60 * 60 * 24 * 365;

/** The locale switcher and theme toggle post here; works without JavaScript. */
export const POST: APIRoute = async ({ request, cookies, redirect, locals }) => {
  const form = await request.formData().catch(() => null);
  const locale = form?.get('locale');
  const theme = form?.get('theme');
  if (isLocale(locale)) {
    cookies.set(LOCALE_COOKIE, locale, { path: '/', maxAge: YEAR, sameSite: 'lax', httpOnly: false });
    // Confirmed in the language just chosen.
    setFlash(cookies, { kind: 'success', message: translatorFor(locale)('locale.changed') });
  }
  if (theme === 'light' || theme === 'dark') {
    cookies.set('theme', theme, { path: '/', maxAge: YEAR, sameSite: 'lax', httpOnly: false });
    setFlash(cookies, { kind: 'normal', message: locals.t(`theme.changed.${theme}`) });
  }
  return redirect(safeNext(form?.get('back')), 303);
};
