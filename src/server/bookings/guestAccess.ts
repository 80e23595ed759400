/**
 * A guest's key in the browser: an HttpOnly cookie holding the edit token, scoped by path to one
 * booking's edit page and its API, so it travels nowhere else and script can never read it. The
 * cookies follow the site's one cookie rule (src/server/http/cookies.ts), `Secure` included.
 */
import type { AstroCookieSetOptions } from 'astro';
import { cookieOptions } from '../http/cookies';
import { MINUTE_MS } from '../../lib/datetime';
import { bookingPaths } from '../../lib/contract/paths';
import type { Actor, BookingView } from './view';
import { clock } from '../clock';

export const GUEST_COOKIE = 'sugu_guest';
/** The same key for the edit page (a second name: one response cannot set one name on two paths in Astro). */
export const GUEST_PAGE_COOKIE = 'sugu_guest_page';
/** The same key for the new booking's result page, which shows the edit link (the form redirects there). */
export const GUEST_DONE_COOKIE = 'sugu_guest_done';
/** After opening an edit link, the cookie lasts this long (never past the end of the stay). */
export const GUEST_LINK_COOKIE_MS = 60 * MINUTE_MS;

export interface CookieSetter {
  set(name: string, value: string, options: AstroCookieSetOptions): void;
}

/** Sets the guest cookie on the edit page's path and the API's path, valid for `ms` but never past the stay's end. */
export function setGuestCookies(
  cookies: CookieSetter,
  locals: { secure: boolean },
  b: Pick<BookingView, 'id' | 'storeId' | 'end'>,
  token: string,
  ms: number,
  now = clock.now(),
) {
  const maxAge = Math.floor(Math.min(ms, b.end.getTime() - now.getTime()) / 1000);
  if (maxAge <= 0) return;
  cookies.set(GUEST_PAGE_COOKIE, token, cookieOptions(locals, { path: bookingPaths.guestEdit(b.storeId, b.id), maxAge }));
  cookies.set(GUEST_COOKIE, token, cookieOptions(locals, { path: bookingPaths.guestApi(b.id), maxAge }));
}

/**
 * Sets the guest cookies of a booking just made: those of `setGuestCookies`, and one for its result
 * page, so the form can redirect there (a reload or Back never posts again) while the token stays
 * out of every address.
 */
export function setNewGuestCookies(
  cookies: CookieSetter,
  locals: { secure: boolean },
  b: Pick<BookingView, 'id' | 'storeId' | 'end'>,
  token: string,
  now = clock.now(),
) {
  const ms = b.end.getTime() - now.getTime();
  setGuestCookies(cookies, locals, b, token, ms, now);
  const maxAge = Math.floor(ms / 1000);
  if (maxAge > 0) cookies.set(GUEST_DONE_COOKIE, token, cookieOptions(locals, { path: bookingPaths.guestComplete(b.storeId, b.id), maxAge }));
}

/** The edit token from `X-Booking-Token`, else from the booking's HttpOnly cookie. A wrong one is just "not found". */
export function guestActor({ request, cookies }: { request: Request; cookies: { get(name: string): { value: string } | undefined } }): Actor {
  return { kind: 'guest', token: request.headers.get('x-booking-token') ?? cookies.get(GUEST_COOKIE)?.value ?? '' };
}
