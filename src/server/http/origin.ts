/**
 * Cross-site request forgery: a write that another site could make a browser send with the
 * diner's cookies, without asking first — a form post, or a fetch with a "simple" content type.
 * Anything else (JSON, a Bearer token) needs a CORS preflight, which Sugu never grants.
 *
 * This is the rule of Astro's `security.checkOrigin`, which is turned off in astro.config.mjs so
 * that the refusal is the API's JSON envelope and the configured PUBLIC_ORIGIN counts as the site
 * behind a TLS proxy (where the request's own URL says http://).
 */
import { publicOrigin } from '../config';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** The site's own origins: the one the request reached, and the public one (behind a proxy they differ). */
export function siteOrigins(url: URL): string[] {
  return [url.origin, publicOrigin()];
}

/** The request names an Origin, and it is not the site's. */
export function hasForeignOrigin(request: Request, siteOrigins: readonly string[]): boolean {
  const origin = request.headers.get('origin');
  return origin !== null && !siteOrigins.includes(origin);
}

/**
 * True for a write to refuse: not from the site, and sendable cross-site without a preflight.
 * A write without an Origin is refused too unless its content type needs a preflight, as Astro
 * does (browsers old enough to omit Origin exist).
 * @example isCrossSiteWrite(new Request('http://x/api', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' } }), ['http://x']) // true
 */
export function isCrossSiteWrite(request: Request, siteOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  // A browser never attaches a Bearer token by itself, so such a request cannot be forged.
  if (/^Bearer\s/i.test(request.headers.get('authorization') ?? '')) return false;
  // Nor a guest's booking or watch token: a custom header, which another site's page can only send
  // after a preflight, and the preflight is refused (src/middleware.ts cors). No cookie is needed.
  if (request.headers.has('x-booking-token') || request.headers.has('x-watch-token')) return false;
  const origin = request.headers.get('origin');
  if (origin !== null && siteOrigins.includes(origin)) return false;
  const type = request.headers.get('content-type');
  return type === null || FORM_TYPES.some((form) => type.toLowerCase().includes(form));
}
