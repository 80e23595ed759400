/** Navigation rules of spec sections 2 and 6, kept pure so they are tested alone. */

/** Pages only a signed-in user may open; guests are sent to sign-in. `/booking-list` is deliberately absent. */
const GUARDED: readonly RegExp[] = [
  /^\/account-info$/,
  /^\/viewed-list$/,
  /^\/favourite$/,
  /^\/store\/[^/]+\/booking$/,
  /^\/store\/[^/]+\/booking\/edit\/[^/]+$/,
  /^\/user-change-password$/,
  /^\/user-leave-association$/,
];

/** Auth screens a signed-in user has no business on. */
const GUEST_ONLY: readonly string[] = ['/auth/signin', '/auth/signup', '/auth/forgot-password', '/auth/reset-password'];

/** Store-manager and admin screens, which live on the store host. Ids are numeric only. */
const STORE_HOST_PATHS =
  /^\/(?:list-booking-manage|detail-store-manage|list-seat-manage|list-payment-manage|list-store-manage|admin-create-store|campaign-banner|store-signin|store-signup|admin-signin)$|^\/(?:edit-seat|payment|card-payment|edit-store|payment-detail)\/\d+$/;

export const SIGNIN_PATH = '/auth/signin';

/**
 * The store host's own pages live under this folder of src/pages; the middleware rewrites the
 * store host's paths onto it, and the folder is not found on the diner host.
 */
export const STORE_SITE_PREFIX = '/store-host';
export const STORE_SIGNIN_PATH = '/store-signin';
export const ADMIN_SIGNIN_PATH = '/admin-signin';
/** Where the platform's admin works: it has no store, so no ledger. */
export const ADMIN_HOME_PATH = '/admin-create-store';
export const STORE_HOME_PATH = '/list-booking-manage';
/** Store-host screens for the signed-out. */
const STORE_GUEST_ONLY: readonly string[] = ['/store-signin', '/store-signup', '/admin-signin'];
/** Store-host endpoints that are not screens (posted to by a form). */
const STORE_ACTIONS: readonly string[] = ['/store-signout'];
/** Diner-site endpoints the store host shares: the language and theme switchers. */
const STORE_SHARED: readonly string[] = ['/preferences'];
export const HOME_PATH = '/home';

/** Trailing slashes do not make a different page. */
export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

export function isGuarded(pathname: string): boolean {
  const p = normalisePath(pathname);
  return GUARDED.some((r) => r.test(p));
}

export function isGuestOnly(pathname: string): boolean {
  return GUEST_ONLY.includes(normalisePath(pathname));
}

export function isStoreHostPath(pathname: string): boolean {
  return STORE_HOST_PATHS.test(normalisePath(pathname));
}

/**
 * Stands for the site's origin when a return path is resolved. Only the path of the result is
 * ever used, so the real origin (which a forged Host header could change) is not needed, and an
 * absolute URL, even one naming the site itself, is never taken.
 */
const SITE = 'https://site.invalid';
const MAX_RETURN_PATH = 2048;

/**
 * The one check for every return path taken from a request (`next` after sign-in and sign-up, the
 * no-JavaScript `back` of /preferences, the sign-in island's `location.assign`): resolved against
 * the site as a browser resolves a Location, accepted only when it stays on the site, and then
 * checked once more in its normalised form, because a browser reading `//evil.example` (which is
 * what `/.//evil.example` normalises to) leaves the site.
 * @example safeNext('/favourite?party=4') // '/favourite?party=4'
 * @example safeNext('/.//evil.example') // '/home'
 */
export function safeNext(next: unknown, fallback = HOME_PATH): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.length > MAX_RETURN_PATH) return fallback;
  try {
    const url = new URL(next, SITE);
    if (url.origin !== SITE) return fallback;
    const path = url.pathname + url.search + url.hash;
    // Read again as a Location, the normalised path must name the very same place on the site.
    const again = new URL(path, SITE);
    return path.startsWith('/') && !path.startsWith('//') && again.origin === SITE && again.href === url.href ? path : fallback;
  } catch {
    return fallback;
  }
}

/** A path inside the store site's own folder (never served on the diner host). */
export function isStoreSiteFolder(pathname: string): boolean {
  return pathname === STORE_SITE_PREFIX || pathname.startsWith(`${STORE_SITE_PREFIX}/`);
}

export type StoreRouteDecision = { redirect: string; status: 302 } | { rewrite: string } | null;

/** The platform admin's own screens; every other screen of the store host is a store's. */
const isAdminScreen = (p: string) => p.startsWith('/admin-');

/**
 * Where a store-host request goes (the API and build files are not asked about): `/` to the
 * ledger or sign-in, the spec's store paths onto the store site's folder (sign-in first for all
 * but the sign-in screens), the shared switchers through, and anything else to the store site's
 * own not-found page. The platform's admin has no store, so a store's screen (and `/`, and a
 * sign-in screen once signed in) sends it to its own screen instead.
 * @example decideStoreRoute({ pathname: '/list-booking-manage', search: '?date=2026-11-24', signedIn: true }) // { rewrite: '/store-host/list-booking-manage?date=2026-11-24' }
 * @example decideStoreRoute({ pathname: '/list-seat-manage', search: '', signedIn: true, admin: true }) // { redirect: '/admin-create-store', status: 302 }
 */
export function decideStoreRoute(input: { pathname: string; search: string; signedIn: boolean; admin?: boolean }): StoreRouteDecision {
  const { search, signedIn } = input;
  const admin = signedIn && input.admin === true;
  const home = admin ? ADMIN_HOME_PATH : STORE_HOME_PATH;
  const p = normalisePath(input.pathname);
  if (p === '/') return { redirect: signedIn ? home : STORE_SIGNIN_PATH, status: 302 };
  if (STORE_SHARED.includes(p)) return null;
  if (STORE_ACTIONS.includes(p)) return { rewrite: `${STORE_SITE_PREFIX}${p}${search}` };
  if (!isStoreHostPath(p)) return { rewrite: `${STORE_SITE_PREFIX}/not-found` };
  if (STORE_GUEST_ONLY.includes(p)) return signedIn ? { redirect: home, status: 302 } : { rewrite: `${STORE_SITE_PREFIX}${p}${search}` };
  // The platform admin's screens ask for the admin's sign-in, the others for the staff's.
  if (!signedIn) return { redirect: `${isAdminScreen(p) ? ADMIN_SIGNIN_PATH : STORE_SIGNIN_PATH}?next=${encodeURIComponent(p + search)}`, status: 302 };
  if (admin && !isAdminScreen(p)) return { redirect: ADMIN_HOME_PATH, status: 302 };
  return { rewrite: `${STORE_SITE_PREFIX}${p}${search}` };
}

export type RouteDecision = { redirect: string; status: 301 | 302 | 303 | 307 } | null;

/**
 * Where a request must go instead, if anywhere.
 * @example decideRoute({ pathname: '/', search: '', signedIn: false, storeHost: 'https://s.example' }) // { redirect: '/home', status: 302 }
 */
export function decideRoute(input: { pathname: string; search: string; signedIn: boolean; storeHost: string }): RouteDecision {
  const { pathname, search, signedIn, storeHost } = input;
  if (pathname === '/') return { redirect: HOME_PATH, status: 302 };
  if (isStoreHostPath(pathname)) return { redirect: `${storeHost}${pathname}${search}`, status: 302 };
  if (signedIn && isGuestOnly(pathname)) return { redirect: HOME_PATH, status: 302 };
  if (!signedIn && isGuarded(pathname)) {
    return { redirect: `${SIGNIN_PATH}?next=${encodeURIComponent(pathname + search)}`, status: 302 };
  }
  return null;
}

export type TabKey = 'home' | 'favourites' | 'history' | 'bookings' | 'account';

/** The five bottom-navigation tabs (spec section 2), in order. The account tab reads ログイン for guests. */
export const TABS: readonly { key: TabKey; href: string; guestHref?: string }[] = [
  { key: 'home', href: '/home' },
  { key: 'favourites', href: '/favourite' },
  { key: 'history', href: '/viewed-list' },
  { key: 'bookings', href: '/booking-list' },
  { key: 'account', href: '/account-info', guestHref: SIGNIN_PATH },
];

/** Which tab a page belongs to, if any. */
export function activeTab(pathname: string): TabKey | null {
  const p = normalisePath(pathname);
  if (/^\/(?:home|stores|areas\/[^/]+|store\/[^/]+)$/.test(p)) return 'home';
  if (p === '/favourite') return 'favourites';
  if (p === '/viewed-list') return 'history';
  if (p === '/booking-list' || /^\/store\/[^/]+\/booking(?:-without)?(?:\/edit\/[^/]+)?$/.test(p)) return 'bookings';
  if (/^\/(?:account-info|user-change-password|user-leave-association|auth\/[^/]+)$/.test(p)) return 'account';
  return null;
}
