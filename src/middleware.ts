import { defineMiddleware, sequence } from 'astro:middleware';
import { detectLocale } from './i18n/detect';
import { directionOf, translatorFor } from './i18n';
import { LOCALE_COOKIE } from './i18n/locales';
import { decideRoute, decideStoreRoute, isStoreSiteFolder } from './lib/routes';
import { decodeFlash, FLASH_COOKIE } from './lib/flash';
import { config } from './server/config';
import { cookieOptions } from './server/http/cookies';
import { clearSessionCookie, resolveSession, SESSION_COOKIE, setSessionCookie, STORE_SESSION_COOKIE, type SessionUser } from './server/sessions';
import { ApiError, databaseAwayError, errorForStatus, errorResponse } from './server/http/api';
import { isCrossSiteWrite, siteOrigins } from './server/http/origin';
import { corsAllowed, corsHeaders, isPreflight, isStoreHostPath, preflightHeaders, storeOrigin, trustedOrigins } from './server/http/cors';
import { clientOf } from './server/http/client';
import { mergeCsp, securityHeaders, STRICT_TRANSPORT } from './server/http/headers';
import { startApp } from './server/app';
import { documentedMethods } from './server/openapi';
import { databaseAway, noteDatabaseFailure, RETRY_AFTER_SECONDS } from './server/db/health';
import { log, withRequestId } from './server/log';
import { requestIdOf } from './server/http/requestId';

const settings = config();
const headers = securityHeaders({
  tileOrigin: new URL(settings.MAP_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin,
  analytics: settings.PUBLIC_ANALYTICS_ID !== '',
});
let proxyWarned = false;

/**
 * The request's id (src/server/http/requestId.ts), under which everything after it runs, so that
 * every log line of the request carries it (src/server/log.ts). The app (its database and jobs)
 * starts with the server (scripts/start.mjs, npm run dev); `startApp` here only finds it, or starts
 * it for a server started otherwise (astro preview), outside the request's id: the jobs' timers
 * would otherwise carry the first request's id for the life of the process.
 */
const context = defineMiddleware((ctx, next) => {
  ctx.locals.app = startApp();
  ctx.locals.requestId = requestIdOf(ctx.request.headers.get('x-request-id'));
  return withRequestId(ctx.locals.requestId, () => handled(ctx, next));
});

/** Who the client is (src/server/http/client.ts), timing and one structured log line per request. */
const handled = defineMiddleware(async ({ locals, request, url, clientAddress }, next) => {
  const started = performance.now();
  const client = clientOf(clientAddress, request, url);
  locals.clientAddress = client.address;
  locals.secure = client.secure;
  if (!settings.TRUST_PROXY && !proxyWarned && request.headers.has(settings.PROXY_HEADER)) {
    proxyWarned = true;
    log('warn', 'proxy_header_ignored', {
      header: settings.PROXY_HEADER,
      hint: 'behind a reverse proxy, set TRUST_PROXY to its address, or every client shares its limits',
    });
  }
  const response = await next();
  response.headers.set('x-request-id', locals.requestId);
  if (settings.SUGU_LOG_REQUESTS) {
    log('info', 'request', {
      requestId: locals.requestId,
      method: request.method,
      path: url.pathname,
      status: response.status,
      ms: Math.round(performance.now() - started),
    });
  }
  return response;
});

/** One translator per request, fixed to the request's locale. */
const locale = defineMiddleware(({ locals, cookies, request }, next) => {
  locals.locale = detectLocale({ cookie: cookies.get(LOCALE_COOKIE)?.value, acceptLanguage: request.headers.get('accept-language') });
  locals.t = translatorFor(locals.locale);
  locals.dir = directionOf(locals.locale);
  // No choice yet: the page follows the device's light or dark setting (CSS, so without JavaScript too).
  const theme = cookies.get('theme')?.value;
  locals.theme = theme === 'dark' || theme === 'light' ? theme : null;
  return next();
});

/**
 * The store host's cross-origin calls (src/server/http/cors.ts): its preflights are granted and its
 * answers readable; any other origin's preflight under /api is refused.
 */
const cors = defineMiddleware(async ({ locals, request, url }, next) => {
  if (!url.pathname.startsWith('/api/')) return next();
  const origin = request.headers.get('origin');
  const allowed = corsAllowed(origin, url.pathname);
  if (isPreflight(request)) {
    if (!allowed) return errorResponse(locals.t, new ApiError(403, 'cross_origin', 'api.error.crossOrigin', { headers: { vary: 'origin' } }));
    return new Response(null, { status: 204, headers: { ...preflightHeaders(origin), vary: 'origin' } });
  }
  const response = await next();
  if (isStoreHostPath(url.pathname)) response.headers.append('vary', 'origin');
  if (allowed) for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
  return response;
});

/**
 * Cross-site writes are refused before anything else reads the request (src/server/http/origin.ts).
 * On the diner site the store host counts as the site on the paths it may call; on the store host
 * only the store host itself does.
 * Sign-out (DELETE /api/login) always answers 204 and decides by itself whether to end a session.
 */
const sameSiteAs = (origins: (url: URL) => string[]) =>
  defineMiddleware(({ locals, request, url }, next) => {
    if (request.method === 'DELETE' && url.pathname === '/api/login') return next();
    if (!isCrossSiteWrite(request, origins(url))) return next();
    if (url.pathname.startsWith('/api/')) return errorResponse(locals.t, new ApiError(403, 'cross_origin', 'api.error.crossOrigin'));
    return new Response(`${locals.t('api.error.crossOrigin')}\n`, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });
const sameSite = sameSiteAs((url) => trustedOrigins(url, siteOrigins(url)));
const storeSameSite = sameSiteAs((url) => [storeOrigin(), url.origin]);

/**
 * Who is asking: the site's session cookie, or a Bearer token for non-browser clients. A cookie
 * whose session is gone (expired, signed out elsewhere) is taken away; a renewed session's cookie
 * is given its new expiry. On the store host only a staff or admin account's session counts: a diner's
 * gives nothing there, and its cookie is taken away.
 */
const sessionBy = (cookieName: string, accepts: (user: SessionUser) => boolean) =>
  defineMiddleware(async ({ locals, cookies, request, url }, next) => {
    const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const cookie = cookies.get(cookieName)?.value;
    // Known away: not asked at all (the driver may be waiting before its next connection attempt).
    let away = databaseAway() && Boolean(bearer ?? cookie);
    const resolved = away
      ? undefined
      : await resolveSession(bearer ?? cookie).catch((error: unknown) => {
          if (!noteDatabaseFailure(error)) throw error;
          away = true;
          return undefined;
        });
    // The database away: a page is served as to someone signed out (the cookie is kept for later);
    // what the account asked to do (an API call, a form) is answered that booking is paused.
    if (away && (url.pathname.startsWith('/api/') || (request.method !== 'GET' && request.method !== 'HEAD'))) {
      return url.pathname.startsWith('/api/') ? errorResponse(locals.t, databaseAwayError()) : pausedPage(locals);
    }
    const found = resolved && !accepts(resolved.user) ? null : resolved;
    locals.user = found?.user ?? null;
    locals.sessionId = found?.sessionId ?? null;
    if (!bearer && cookie) {
      if (found === null) clearSessionCookie(cookies, locals);
      else if (found?.renewedUntil) setSessionCookie(cookies, locals, cookie, found.renewedUntil);
    }
    const flash = cookies.get(FLASH_COOKIE)?.value;
    locals.flash = decodeFlash(flash);
    if (flash) cookies.delete(FLASH_COOKIE, cookieOptions(locals));
    return next();
  });
const session = sessionBy(SESSION_COOKIE, () => true);
const storeSession = sessionBy(STORE_SESSION_COOKIE, (user) => user.role === 'staff' || user.role === 'admin');

/** `/` → `/home`, store-host paths, guest-only auth pages and the guarded pages (spec section 6). */
const routing = defineMiddleware(({ locals, url, redirect }, next) => {
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/_')) return next();
  // The store site's own folder is the store host's alone.
  if (isStoreSiteFolder(url.pathname)) return notFound(next('/404'));
  const decision = decideRoute({ pathname: url.pathname, search: url.search, signedIn: locals.user !== null, storeHost: settings.STORE_HOST });
  return decision ? redirect(decision.redirect, decision.status) : next();
});

/** The page a rewrite gave, answered as not found. */
async function notFound(page: Promise<Response>): Promise<Response> {
  const response = await page;
  return new Response(response.body, { status: 404, headers: response.headers });
}

/**
 * Security headers everywhere; every API error is the JSON envelope, even one Astro made (an
 * unknown path or method). The store host is never indexed and its pages are never stored: they
 * are all one staff member's.
 */
const finishFor = (site: 'diner' | 'store') =>
  defineMiddleware(async ({ locals, url, request }, next) => {
    let response: Response;
    try {
      response = await next();
    } catch (error) {
      // A page that needed the database while it is away: a short 503 saying booking is paused.
      if (!noteDatabaseFailure(error)) throw error;
      response = url.pathname.startsWith('/api/') ? errorResponse(locals.t, databaseAwayError()) : pausedPage(locals);
    }
    // A method the API document does not list for a path it documents: 405 naming the ones it does.
    if (url.pathname.startsWith('/api/') && (response.status === 404 || response.status === 405)) {
      const allow = documentedMethods(url.pathname);
      if (allow && !allow.includes(request.method)) {
        await response.body?.cancel();
        response = errorResponse(locals.t, new ApiError(405, 'method_not_allowed', 'api.error.methodNotAllowed', { headers: { allow: allow.join(', ') } }));
      }
    }
    // 499: the client went away (see api()); nobody reads that answer.
    if (url.pathname.startsWith('/api/') && response.status >= 400 && response.status !== 499 && !response.headers.get('content-type')?.includes('json')) {
      await response.body?.cancel();
      response = errorResponse(locals.t, errorForStatus(response.status));
    }
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'content-security-policy') response.headers.set(name, mergeCsp(response.headers.get(name), value));
      else if (!response.headers.has(name)) response.headers.set(name, value);
    }
    // HSTS by the same decision as Secure cookies (src/server/http/cookies.ts).
    if (locals.secure) response.headers.set('strict-transport-security', STRICT_TRANSPORT);
    if (site === 'store') response.headers.set('x-robots-tag', 'noindex, nofollow');
    if (url.pathname.startsWith('/api/')) response.headers.set('cache-control', 'no-store');
    else if (site === 'store') {
      if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'private, no-store');
    }
    // Pages differ by cookie (session, locale, theme): never kept by a shared cache. A signed-in
    // diner's pages are not stored at all, so nothing personal outlives the session on the device.
    else if (!response.headers.has('cache-control')) response.headers.set('cache-control', locals.user ? 'private, no-store' : 'private, no-cache');
    return response;
  });
const finish = finishFor('diner');

/** The page of a request that could not be answered without the database, in the request's language. */
function pausedPage(locals: App.Locals): Response {
  const message = locals.t('api.error.databaseAway');
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><html lang="${locals.locale}" dir="${locals.dir}"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(message)}</title><main><p role="alert">${escape(message)}</p><p><a href="/home">${escape(locals.t('nav.home'))}</a></p></main></html>`;
  return new Response(html, { status: 503, headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': String(RETRY_AFTER_SECONDS) } });
}

/** The store host's cookies are Secure when it is reached over https too (STORE_HOST says so). */
const storeSecure = defineMiddleware(({ locals }, next) => {
  if (storeOrigin().startsWith('https:')) locals.secure = true;
  return next();
});

/** The store host's paths onto its own folder of pages (src/lib/routes.ts, decideStoreRoute). */
const storeRouting = defineMiddleware(({ locals, url, redirect }, next) => {
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/_')) return next();
  const decision = decideStoreRoute({ pathname: url.pathname, search: url.search, signedIn: locals.user !== null, admin: locals.user?.role === 'admin' });
  if (!decision) return next();
  return 'redirect' in decision ? redirect(decision.redirect, decision.status) : next(decision.rewrite);
});

const diner = sequence(context, locale, finish, cors, sameSite, session, routing);
const store = sequence(context, storeSecure, locale, finishFor('store'), cors, storeSameSite, storeSession, storeRouting);

/** The store host's `host[:port]`, as a request's Host header names it. */
const storeHost = new URL(settings.STORE_HOST).host.toLowerCase();

/** One server, two sites: a request for the store host's Host gets the store site, any other the diner site. */
export const onRequest = defineMiddleware((ctx, next) => {
  ctx.locals.site = ctx.request.headers.get('host')?.toLowerCase() === storeHost ? 'store' : 'diner';
  return ctx.locals.site === 'store' ? store(ctx, next) : diner(ctx, next);
});
