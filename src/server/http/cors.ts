/**
 * Cross-origin access for the store host (`STORE_HOST`, the store-manager site on another origin):
 * its pages call the store API and sign in through `/api/login`, with credentials. Exactly that
 * origin is allowed, on exactly those paths; every other origin gets no CORS headers (the browser
 * then keeps the answer from the page) and its preflight is refused with 403.
 */
import { config } from '../config';

/** The store API's prefix. */
export const STORE_API = '/api/store/';

const METHODS = 'GET, POST, PUT, PATCH, DELETE';
const HEADERS = 'authorization, content-type, last-event-id, x-request-id';
/** How long a browser may keep a granted preflight (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/** The paths the store host may call: the store API and the shared sign-in. */
export function isStoreHostPath(pathname: string): boolean {
  return pathname.startsWith(STORE_API) || pathname === '/api/login';
}

/** The store host's origin (STORE_HOST without a path). */
export function storeOrigin(): string {
  return new URL(config().STORE_HOST).origin;
}

/** True when `origin` is the store host's and the path is one it may call. */
export function corsAllowed(origin: string | null, pathname: string): origin is string {
  return origin !== null && isStoreHostPath(pathname) && origin === storeOrigin();
}

/** The headers that let the store host read an answer, cookies included. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'location, retry-after, x-request-id',
  };
}

/** A preflight's grant. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': METHODS,
    'access-control-allow-headers': HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE),
  };
}

/** A CORS preflight: OPTIONS naming the method it asks for. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}

/**
 * The origins whose writes are this site's own for `url` (src/server/http/origin.ts): the site's,
 * plus the store host's on the paths it may call.
 */
export function trustedOrigins(url: URL, siteOrigins: readonly string[]): string[] {
  return isStoreHostPath(url.pathname) ? [...siteOrigins, storeOrigin()] : [...siteOrigins];
}
