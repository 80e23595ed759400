/**
 * A guest booking made by another diner, from a client of its own with no cookies: one device is
 * one diner, who cannot hold two overlapping tables at a store (src/server/bookings/create.ts), so
 * the diners a test sends to fill a store must not share the test's device cookie.
 */
export function bookAsAnotherDiner(base: string, body: Record<string, unknown>): Promise<Response> {
  const origin = new URL(base).origin;
  return fetch(`${origin}/api/guest-bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'accept-language': 'ja' },
    body: JSON.stringify(body),
  });
}
