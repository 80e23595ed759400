import { persistentAtom } from '@nanostores/persistent';

/** The diner's last known position (spec section 3: local storage key `post_location`). */
export interface PostLocation {
  latitude: number;
  longitude: number;
}

export const $postLocation = persistentAtom<PostLocation | undefined>('post_location', undefined, {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const v = JSON.parse(raw) as Partial<PostLocation>;
      return typeof v.latitude === 'number' && typeof v.longitude === 'number' ? { latitude: v.latitude, longitude: v.longitude } : undefined;
    } catch {
      return undefined;
    }
  },
});

/** Fired on window after a position is read: listings re-sort nearest first (spec section 4). */
export const RECOMMENDED_REFRESH_EVENT = 'sugu:recommended-stores-refresh';

/**
 * Whether a position was read since this page loaded: the position can arrive before a listing's
 * script has started to listen for the event, and that listing still re-sorts.
 */
let readOnThisPage = false;
export const positionReadOnThisPage = (): boolean => readOnThisPage;

export function setPostLocation(latitude: number, longitude: number): void {
  readOnThisPage = true;
  $postLocation.set({ latitude, longitude });
  window.dispatchEvent(new CustomEvent(RECOMMENDED_REFRESH_EVENT, { detail: { latitude, longitude } }));
}

export function clearPostLocation(): void {
  // Undefined removes the key from localStorage.
  $postLocation.set(undefined);
}
