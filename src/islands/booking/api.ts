/** The booking widget's calls to the JSON API, and the contract check it runs before sending. */
import { fieldErrors, type Translate } from '../../lib/contract/messages';
import type { ErrorJson, GuestBookedJson } from '../../lib/contract/responses';
import type { Errors, Mode } from './types';

export { bookingBody } from '../../lib/contract/bookingForm';

// The schemas load with the first keystroke, not with the page: the page's first paint never waits for them.
const rules = () => import('../../lib/contract/booking');
export const preloadRules = () => void rules().catch(() => {});

/** Field errors as the server would give them, from the same schemas and messages. */
export async function checkBooking(mode: Mode, body: Record<string, unknown>, t: Translate): Promise<Errors> {
  const { bookingIssues } = await rules();
  return fieldErrors(t, bookingIssues(mode, body));
}

export type Answer<T> = { ok: true; data: T } | { ok: false; status: number; error: ErrorJson['error'] | null };

/** A fresh Idempotency-Key: one per intent (a confirm step), sent again on every retry of it. */
export function newIntentKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Sends a JSON request; the answer's body, or its error envelope. Network failures throw. `key`: its Idempotency-Key. */
export async function send<T = GuestBookedJson>(url: string, method: 'POST' | 'PATCH' | 'DELETE', body?: unknown, key?: string): Promise<Answer<T>> {
  const res = await fetch(url, {
    method,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'idempotency-key': key } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as (T & Partial<ErrorJson>) | null;
  if (res.ok && json) return { ok: true, data: json };
  return { ok: false, status: res.status, error: json?.error ?? null };
}
