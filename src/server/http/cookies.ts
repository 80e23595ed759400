import type { AstroCookieSetOptions } from 'astro';

/**
 * The one rule for every cookie Sugu sets (session, guest edit token, device, flash, settings):
 * path `/`, SameSite=Lax, HttpOnly unless a script must read it, and Secure exactly when the
 * browser reached the site over https — `locals.secure`, decided from configuration
 * (PUBLIC_ORIGIN https, TLS to Node itself, or a trusted proxy saying https; see client.ts). The
 * same decision sends HSTS. Browsers drop Secure cookies on plain http, so it cannot be "always".
 * @example cookies.set('theme', 'dark', cookieOptions(locals, { httpOnly: false, maxAge: YEAR }))
 */
export function cookieOptions(locals: { secure: boolean }, options: AstroCookieSetOptions = {}): AstroCookieSetOptions {
  return { path: '/', sameSite: 'lax', httpOnly: true, ...options, secure: locals.secure };
}
