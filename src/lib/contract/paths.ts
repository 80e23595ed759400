import { HOME_PATH } from '../routes';
import { DEFAULT_PARTY } from './limits';
import type { TableKind } from './enums';

/** A query string of the values given (none: empty), so links stay short. */
const query = (values: Record<string, string | undefined>) => {
  const q = String(new URLSearchParams(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined)));
  return q ? `?${q}` : '';
};

/**
 * A store's page, with the party (when not the default) and the seat kind a listing asked for: its
 * starts and booking links are then for that party at tables of that kind.
 */
export const storePath = (storeId: number, party: number = DEFAULT_PARTY, seat?: TableKind) =>
  `/store/${storeId}${query({ party: party === DEFAULT_PARTY ? undefined : String(party), seat })}`;

/**
 * Where a booking lives, for pages, islands, mails and cookie scopes alike. A guest's pages and API
 * carry no account: the edit token travels in a link once, then in a cookie scoped to these paths.
 */
export const bookingPaths = {
  /** A signed-in diner's API for one booking. */
  api: (id: number) => `/api/bookings/${id}`,
  ics: (id: number) => `/api/bookings/${id}/ics`,
  edit: (storeId: number, id: number) => `/store/${storeId}/booking/edit/${id}`,
  complete: (storeId: number, id: number) => `/store/${storeId}/booking/complete/${id}`,
  /**
   * The booking form of a signed-in diner or of a guest; with `start`, opened with that start (and
   * party) chosen; with `seat`, at a table of that kind (a listing's 個室 filter stays the booking's).
   */
  book: (storeId: number, signedIn: boolean, party?: number, start?: string, seat?: TableKind) =>
    `/store/${storeId}/${signedIn ? 'booking' : 'booking-without'}${query({ party: party === undefined ? undefined : String(party), start: start || undefined, seat })}`,
  /** A guest's new booking, where the form goes once it is made (its edit token in a cookie on this path). */
  guestComplete: (storeId: number, id: number) => `/store/${storeId}/booking-without/complete/${id}`,
  guestApi: (id: number) => `/api/guest-bookings/${id}`,
  guestIcs: (id: number) => `/api/guest-bookings/${id}/ics`,
  /** The guest edit page; with `token`, the link that opens it (mailed, and shown once). */
  guestEdit: (storeId: number, id: number, token?: string) =>
    `/store/${storeId}/booking-without/edit/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
};

/** A map of a place outside the app (the store page's fallback link, the reminder mail). */
export const mapLink = (lat: number, lng: number) => `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=18/${lat}/${lng}`;

/** A diner's watches (空席通知), and where a notification sends them to book. */
export const watchPaths = {
  /** The diner's watches, and the plain form that makes one (prefilled from the query). */
  list: '/watches',
  /** The form to watch a store or a search, with what the page it came from already knows. */
  ask: (what: { store_id?: number; area_id?: number; genre?: string; keyword?: string; party: number; from?: string }) =>
    `/watches?${new URLSearchParams(Object.entries(what).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])))}#watch-form`,
  /** The in-page notifications of the diner's watches (Server-Sent Events). */
  stream: '/api/watches/stream',
  /** A freed start, opened in the booking form with store, start and party chosen (the cards' two-tap link). */
  book: (storeId: number, signedIn: boolean, party: number, start: string) => bookingPaths.book(storeId, signedIn, party, start),
};

/** Account screens a mail links to. */
/** The OpenID Connect providers Sugu can sign in with (each on when configured, src/server/oidc.ts). */
export const OIDC_PROVIDERS = ['line', 'google'] as const;
export type OidcProvider = (typeof OIDC_PROVIDERS)[number];

export const authPaths = {
  /** The e-mail verification link's page (`?token=`): a button verifies and signs in; the plain form there also sends the link again. */
  verify: '/auth/verify',
  signin: '/auth/signin',
  /** The sign-in page that returns to `next` afterwards. */
  signinFor: (next: string) => `/auth/signin?next=${encodeURIComponent(next)}`,
  /** Starts a sign-in at the provider (`?next=` where to go after it). */
  oidcStart: (provider: OidcProvider, next?: string) => `/auth/oidc/${provider}${next && next !== HOME_PATH ? `?next=${encodeURIComponent(next)}` : ''}`,
  /** Where the provider sends the browser back: the redirect URI registered there (after PUBLIC_ORIGIN). */
  oidcCallback: (provider: OidcProvider) => `/auth/oidc/${provider}/callback`,
};
