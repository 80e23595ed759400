/** Watches as requests carry them: who owns a request's watches, the guest device's cookie, a watch's JSON. */
import type { AstroCookies } from 'astro';
import { toTokyoIso } from '../../lib/datetime';
import { TOKEN_MAX } from '../../lib/contract/limits';
import { cookieOptions } from '../http/cookies';
import type { Owner, WatchRow } from './service';

/**
 * The device token of a guest's watches, in an HttpOnly cookie so that plain forms, the list and
 * the live stream know the device (the API also takes it as `X-Watch-Token`). Watches end within
 * the bookable days, so the cookie need not outlive them.
 */
export const WATCH_DEVICE_COOKIE = 'sugu_watch';
const WATCH_DEVICE_MAX_AGE_S = 15 * 24 * 60 * 60;

/** The guest device's watch token, from the header or the cookie. */
export function deviceWatchToken(request: Request, cookies?: AstroCookies): string | null {
  const token = request.headers.get('x-watch-token') || cookies?.get(WATCH_DEVICE_COOKIE)?.value || '';
  return token && token.length <= TOKEN_MAX ? token : null;
}

export function rememberWatchDevice(cookies: AstroCookies, locals: { secure: boolean }, token: string): void {
  cookies.set(WATCH_DEVICE_COOKIE, token, cookieOptions(locals, { maxAge: WATCH_DEVICE_MAX_AGE_S }));
}

/** The signed-in diner, or the device that made a guest's watches. */
export function watchOwner(locals: { user: { id: number; email: string } | null }, request: Request, cookies?: AstroCookies): Owner | null {
  if (locals.user) return { kind: 'user', userId: locals.user.id, email: locals.user.email };
  const token = deviceWatchToken(request, cookies);
  return token ? { kind: 'device', token } : null;
}

export function watchJson(w: WatchRow) {
  return {
    id: w.id,
    store_id: w.storeId,
    area_id: w.areaId,
    genre: w.genre,
    keyword: w.keyword,
    party_size: w.partySize,
    from: toTokyoIso(w.startsFrom),
    until: toTokyoIso(w.endsAt),
    confirmed: w.confirmedAt !== null,
  };
}
