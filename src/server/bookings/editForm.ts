/**
 * Changing or cancelling a booking without JavaScript: the edit page renders the form with the
 * day's starts (the booking's own start chosen), and answers the form posted to it as the island
 * would — another day's starts, the confirmation, the change, the cancel confirmation (with the
 * store's policy), or the cancellation. The rules are the API's (`change`, `cancel`).
 */
import * as z from 'zod/mini';
import type { Db } from '../db/types';
import { toTokyoIso } from '../../lib/datetime';
import { TABLE_KINDS } from '../../lib/contract/enums';
import { DEFAULT_PARTY } from '../../lib/contract/limits';
import { bookingSchemas } from '../../lib/contract/booking';
import { fieldErrors } from '../../lib/contract/messages';
import { bookingBody, EDIT_INTENTS, type FormValues } from '../../lib/contract/bookingForm';
import type { SlotJson } from '../../lib/contract/responses';
import { businessDate } from '../availability';
import { partyField } from '../stores/query';
import { ApiError, translate } from '../http/api';
import { bookingContext, cancel, change } from './http';
import { EMPTY, state, takenNotice, text, withSlots, type PageContext, type Posted } from './form';
import type { BookingStore } from './pages';
import type { Actor, BookingView } from './view';
import { clock } from '../clock';

const postedSchema = z.object({
  intent: z.catch(z.enum(EDIT_INTENTS), 'next'),
  date: text,
  start: text,
  party_size: z.catch(partyField, DEFAULT_PARTY),
  seat_preference: z.catch(z.union([z.enum(TABLE_KINDS), z.literal('')]), ''),
  note: text,
});

/** The booking as it is, as form values. */
const asBooked = (b: BookingView): FormValues => ({
  ...EMPTY,
  date: businessDate(b.start),
  party: b.partySize,
  start: toTokyoIso(b.start),
  seat: b.seatPreference ?? '',
  note: b.note,
});

/**
 * The edit page's form: the booking as it is (GET), or the answer to the form it posted. Saving or
 * cancelling redirects to the page with `?done=saved|cancelled`, which shows the booking as it now is.
 */
export async function editFormPage(db: Db, store: BookingStore, booking: BookingView, actor: Actor, page: PageContext, now = clock.now()): Promise<Posted> {
  const { t } = page.locals;
  if (page.request.method !== 'POST') return { state: state(await withSlots(db, store, asBooked(booking), page.locals, now, booking.start)), status: 200 };
  page.response.headers.set('cache-control', 'no-store');
  const p = postedSchema.parse(Object.fromEntries(await page.request.formData().catch(() => new FormData())));
  // The cancel forms carry no choice: they show the booking as it is.
  const cancelling = p.intent === 'ask-cancel' || p.intent === 'keep' || p.intent === 'cancel';
  const typed = cancelling ? asBooked(booking) : { ...EMPTY, date: p.date, party: p.party_size, start: p.start, seat: p.seat_preference, note: p.note };
  const base = await withSlots(db, store, typed, page.locals, now, booking.start);
  const answer = (more: Parameters<typeof state>[1], status = 200): Posted => {
    page.response.status = status;
    return { state: state(base, more), status };
  };
  const done = (what: 'saved' | 'cancelled') => ({ redirect: `${page.url.pathname}?done=${what}` });
  const ctx = { ...bookingContext(page.locals), now };
  try {
    if (p.intent === 'ask-cancel') return answer({ askCancel: true });
    if (p.intent === 'cancel') {
      await cancel(db, booking.id, actor, ctx);
      return done('cancelled');
    }
    if (p.intent === 'slots' || p.intent === 'edit' || p.intent === 'keep') return answer({});
    if (base.notice) return answer({}, 409);
    const parsed = z.safeParse(bookingSchemas.edit, bookingBody('edit', store.id, base.values));
    if (!parsed.success) return answer({ errors: fieldErrors(translate(t), parsed.error.issues) }, 400);
    if (p.intent === 'next') return answer({ step: 'confirm' });
    await change(db, booking.id, parsed.data, actor, ctx);
    return done('saved');
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === 'slot_taken') {
      const next = ((e.options.extra?.next_slots ?? []) as SlotJson[]).filter((s) => s.free_tables > 0);
      page.response.status = 409;
      return { state: state({ ...base, values: { ...base.values, start: '' }, notice: takenNotice(t, next) }), status: 409 };
    }
    return answer({ errors: e.options.fields ?? { _: t(e.messageKey, e.options.params) } }, e.status);
  }
}
