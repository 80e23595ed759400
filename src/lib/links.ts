/**
 * Links that leave the app after booking: the way to the store, a call, and sharing. Pages and
 * islands build them here alike.
 */

/** Walking directions to a point in the phone's map app (Google Maps' public URL scheme opens the app or the site). */
export const directionsUrl = (lat: number, lng: number) => `https://www.google.com/maps/dir/?api=1&destination=${lat},${lng}&travelmode=walking`;

/** `tel:` with the digits of a number as printed (`03-1234-5678` → `tel:0312345678`). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** LINE's share screen with `text` filled in: what sharing falls back to where the Web Share API is missing (and without JavaScript). */
export const lineShareUrl = (text: string) => `https://line.me/R/share?text=${encodeURIComponent(text)}`;
