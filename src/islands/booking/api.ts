/** The booking widget's calls to the JSON API (the typed client), and the contract check it runs before sending. */
import { fieldErrors, type Translate } from '../../lib/contract/messages';
import { api } from '../../lib/api/client';
import type { BookingJson, ErrorJson } from '../../lib/contract/responses';
import type { BookingTarget, Errors, Mode } from './types';

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

/** openapi-fetch's answer as the widget reads it. Network failures throw before this. */
function answer<T>(result: { data?: T; error?: unknown; response: Response }): Answer<T> {
  if (result.response.ok && result.data) return { ok: true, data: result.data };
  return { ok: false, status: result.response.status, error: (result.error as Partial<ErrorJson> | undefined)?.error ?? null };
}

/**
 * Books (create, guest) or changes (edit) through the typed client. The body is sent as the
 * contract parses it, so what the document says each call takes is what the type check holds it to;
 * a body the contract refuses is not sent, and comes back as the server would refuse it.
 */
export async function sendBooking(mode: Mode, target: BookingTarget, body: Record<string, unknown>, key: string, t: Translate): Promise<Answer<BookingJson>> {
  const { parseBooking } = await rules();
  const headers = { 'idempotency-key': key };
  const refused = (issues: Parameters<typeof fieldErrors>[1]): Answer<BookingJson> => ({
    ok: false,
    status: 400,
    error: { code: 'validation_failed', message: t('validation.failed'), fields: fieldErrors(t, issues) },
  });
  if (mode === 'edit') {
    const edit = parseBooking.edit(body);
    if (!edit.success) return refused(edit.error.issues);
    const params = { path: { id: target.id! } };
    return answer(
      target.guest
        ? await api.PATCH('/api/guest-bookings/{id}', { params, body: edit.data, headers })
        : await api.PATCH('/api/bookings/{id}', { params, body: edit.data, headers }),
    );
  }
  if (mode === 'guest') {
    const guest = parseBooking.guest(body);
    if (!guest.success) return refused(guest.error.issues);
    return answer(await api.POST('/api/guest-bookings', { body: guest.data, headers }));
  }
  const create = parseBooking.create(body);
  if (!create.success) return refused(create.error.issues);
  return answer(await api.POST('/api/bookings', { body: create.data, headers }));
}

/** Cancels the booking; `key` is the question's Idempotency-Key. */
export async function cancelBooking(target: BookingTarget, key: string): Promise<Answer<BookingJson>> {
  const init = { params: { path: { id: target.id! } }, headers: { 'idempotency-key': key } };
  return answer(target.guest ? await api.DELETE('/api/guest-bookings/{id}', init) : await api.DELETE('/api/bookings/{id}', init));
}

/** The booking as it stands now (its fee, when the cancel question opens). */
export async function readBooking(target: BookingTarget): Promise<BookingJson | null> {
  const init = { params: { path: { id: target.id! } } };
  const result = target.guest ? await api.GET('/api/guest-bookings/{id}', init) : await api.GET('/api/bookings/{id}', init);
  return result.response.ok ? (result.data ?? null) : null;
}
