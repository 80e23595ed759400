/**
 * The store API's endpoints speak the staff's language, Japanese first: a request that asks for
 * none of the supported languages (curl, a tablet set to a language Sugu does not have) is answered
 * in Japanese, where the diners' API falls back to English. A language asked for (the locale
 * cookie, Accept-Language) is still honoured.
 */
import type { APIContext, APIRoute } from 'astro';
import { api } from '../http/api';
import { detectLocale } from '../../i18n/detect';
import { directionOf, translatorFor } from '../../i18n';
import { LOCALE_COOKIE, type Locale } from '../../i18n/locales';

/** The store host's language when the request asks for none Sugu has. */
export const STAFF_FALLBACK_LOCALE: Locale = 'ja';

/** The staff's language for a request. */
export function staffLocale(context: Pick<APIContext, 'cookies' | 'request'>): Locale {
  return detectLocale(
    { cookie: context.cookies.get(LOCALE_COOKIE)?.value, acceptLanguage: context.request.headers.get('accept-language') },
    console.error,
    STAFF_FALLBACK_LOCALE,
  );
}

/** `api` for a store endpoint: its answers and errors in the staff's language. */
export function storeApi(handler: (context: APIContext) => Promise<Response> | Response): APIRoute {
  const endpoint = api(handler);
  return (context) => {
    const locale = staffLocale(context);
    context.locals.locale = locale;
    context.locals.t = translatorFor(locale);
    context.locals.dir = directionOf(locale);
    return endpoint(context);
  };
}
