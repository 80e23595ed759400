/**
 * The booking form on the server, so that booking works without JavaScript and the island starts
 * from what the server rendered: the choice a link carries (`?start=…&party=…` from a listing card
 * or the store page), and the form posted to the booking page itself — show the day's starts, the
 * confirmation, back to the form, or book. The answers are the island's: the same schemas and
 * messages, a taken start offering the next free ones, and nothing typed is lost.
 *
 * One module: the no-JavaScript form's steps (a link's choice, a post, the confirmation, a guest's
 * booking) share one state shape with the island, and are read in the order a diner goes through
 * them.
 */
import type { AstroCookies } from 'astro';
import * as z from 'zod/mini';
import type { Db } from '../db/types';
import type { T } from '../../i18n';
import { toTokyoIso } from '../../lib/datetime';
import { TABLE_KINDS } from '../../lib/contract/enums';
import { DEFAULT_PARTY, PARTY_MIN } from '../../lib/contract/limits';
import { authPaths, bookingPaths } from '../../lib/contract/paths';
import { bookingSchemas } from '../../lib/contract/booking';
import { fieldErrors } from '../../lib/contract/messages';
import { bookingBody, FORM_INTENTS, type BookingFormState, type FormValues, type TakenNotice } from '../../lib/contract/bookingForm';
import type { SlotJson } from '../../lib/contract/responses';
import { bookableDates, businessDate, daySlots } from '../availability';
import { partyField } from '../stores/query';
import { slotJson } from '../stores/json';
import { publicOrigin } from '../config';
import { ApiError, asDatabaseAway, translate } from '../http/api';
import { deviceHash, deviceId, withinBookingLimits } from '../bookingLimits';
import { book, bookingContext } from './http';
import { bookingJson } from './json';
import { setNewGuestCookies } from './guestAccess';
import type { BookingStore } from './pages';
import type { BookingView } from './view';
import { withFees } from './fee';
import { linkNotes } from './linkNotes';
import { clock } from '../clock';

type FormMode = 'create' | 'guest';
/** Whose language the page is in. */
type Reader = { t: T; locale: string };

export const EMPTY: FormValues = { date: '', party: DEFAULT_PARTY, start: '', seat: '', note: '', contact: { name: '', name_kana: '', phone: '', email: '' } };

export const takenNotice = (t: T, next: SlotJson[], taken?: Date | string): TakenNotice => ({
  message: t(next.length ? 'booking.raceLost' : 'booking.raceNone'),
  next,
  ...(taken ? { taken: toTokyoIso(new Date(taken)) } : {}),
});

/**
 * The day's starts for the values: the day is the one chosen (else the start's, else today), the
 * party at most what the store seats, and the start kept while it is free that day; a start gone
 * since it was offered gives a notice with the next free ones. `own`: the start of the booking being
 * changed, which stays chosen (its own table holds it) and whose day stays offered; the fees are
 * then worded for the change.
 */
export async function withSlots(db: Db, store: BookingStore, v: FormValues, reader: Reader, now: Date, own?: Date) {
  const { t } = reader;
  const dates = own ? [...bookableDates(now), businessDate(own)] : bookableDates(now);
  const at = v.start && !Number.isNaN(Date.parse(v.start)) ? new Date(v.start) : null;
  const date = [v.date, at ? businessDate(at) : ''].find((d) => dates.includes(d)) ?? dates[0]!;
  const party = Math.max(PARTY_MIN, Math.min(v.party, store.maxParty));
  const starts = ((await daySlots(db, store.id, date, party, now, v.seat || undefined)) ?? []).map(slotJson);
  const slots = withFees(starts, store.feePolicy, party, now, reader, own ? 'change' : 'book');
  const free = slots.filter((s) => s.free_tables > 0);
  const kept = at !== null && (at.getTime() === own?.getTime() || free.some((s) => Date.parse(s.start) === at.getTime()));
  const sameDay = at !== null && businessDate(at) === date;
  const later = free.filter((s) => at !== null && Date.parse(s.start) > at.getTime());
  const notice = sameDay && !kept ? takenNotice(t, (later.length ? later : free).slice(0, 4), at ?? undefined) : null;
  return { values: { ...v, date, party, start: kept ? toTokyoIso(at) : '' }, slots, notice };
}

export const state = (base: Pick<BookingFormState, 'values' | 'slots' | 'notice'>, more: Partial<BookingFormState> = {}): BookingFormState => ({
  remember: false,
  step: 'form',
  errors: {},
  done: null,
  ...base,
  ...more,
});

/** What a link to the booking form may carry; anything unreadable is as if absent. */
const linkSchema = z.object({
  party: z.catch(partyField, DEFAULT_PARTY),
  start: z.catch(z.iso.datetime({ offset: true }), ''),
  date: z.catch(z.string(), ''),
  seat: z.catch(z.union([z.enum(TABLE_KINDS), z.literal('')]), ''),
});

/**
 * The form as a link opens it: the day's starts rendered by the server, the start chosen. A signed-in
 * diner who tapped a free start sees the confirmation at once, one tap from booking.
 */
export async function linkedForm(
  db: Db,
  store: BookingStore,
  mode: FormMode,
  params: URLSearchParams,
  reader: Reader,
  now = clock.now(),
): Promise<BookingFormState> {
  const q = linkSchema.parse(Object.fromEntries(params));
  // A seat kind the store offers diners is chosen in the form; its starts are that kind's.
  const seat = q.seat && store.kinds.includes(q.seat) ? q.seat : '';
  const found = await withSlots(db, store, { ...EMPTY, date: q.date, party: q.party, start: q.start, seat }, reader, now);
  const { notes, notice } = linkNotes(params, found, store.maxParty, reader);
  const base = { ...found, notice };
  const honoured = Object.keys(notes).length === 0;
  return state(base, { step: mode === 'create' && base.values.start && honoured ? 'confirm' : 'form', ...(honoured ? {} : { notes }) });
}

export const text = z.catch(z.string(), '');
const postedSchema = z.object({
  intent: z.catch(z.enum(FORM_INTENTS), 'next'),
  date: text,
  start: text,
  party_size: z.catch(partyField, DEFAULT_PARTY),
  seat_preference: z.catch(z.union([z.enum(TABLE_KINDS), z.literal('')]), ''),
  note: text,
  name: text,
  name_kana: text,
  phone: text,
  email: text,
  remember: text,
});

export type Posted = { redirect: string } | { state: BookingFormState; status: number };

interface PostContext {
  locals: App.Locals;
  cookies: AstroCookies;
  now?: Date;
}

/** Answers the booking form posted without JavaScript: the form again, the confirmation, a redirect to the booking, or a guest's booking. */
export async function postedForm(
  db: Db,
  store: BookingStore,
  mode: FormMode,
  form: FormData,
  { locals, cookies, now = clock.now() }: PostContext,
): Promise<Posted> {
  const { t, user } = locals;
  if (mode === 'create' && !user) return { redirect: authPaths.signinFor(bookingPaths.book(store.id, true)) };
  const p = postedSchema.parse(Object.fromEntries(form));
  const typed: FormValues = {
    date: p.date,
    party: p.party_size,
    start: p.start,
    seat: p.seat_preference,
    note: p.note,
    contact: { name: p.name, name_kana: p.name_kana, phone: p.phone, email: p.email },
  };
  const base = await withSlots(db, store, typed, locals, now);
  const answer = (more: Partial<BookingFormState>, status = 200) => ({ state: state(base, { remember: p.remember !== '', ...more }), status });
  if (p.intent === 'slots' || p.intent === 'edit') return answer({});
  if (base.notice) return answer({}, 409);
  const body = bookingBody(mode, store.id, base.values);
  const parsed = z.safeParse(bookingSchemas[mode], body);
  if (!parsed.success) return answer({ errors: fieldErrors(translate(t), parsed.error.issues) }, 400);
  if (p.intent === 'next') return answer({ step: 'confirm' });
  const device = deviceId(cookies, locals);
  const ctx = { ...bookingContext(locals), now, device: deviceHash(device) };
  try {
    if (mode === 'create') {
      const actor = { kind: 'user' as const, userId: user!.id, email: user!.email, name: user!.name };
      const { booking } = await withinBookingLimits(db, { kind: 'user', userId: user!.id }, () => book(db, parsed.data, actor, ctx));
      return { redirect: bookingPaths.complete(store.id, booking.id) };
    }
    const input = parsed.data as z.infer<typeof bookingSchemas.guest>;
    const source = { kind: 'guest' as const, address: locals.clientAddress, email: input.email, phone: input.phone, device };
    const { booking, editToken } = await withinBookingLimits(db, source, () => book(db, input, { kind: 'guest', token: '' }, ctx));
    setNewGuestCookies(cookies, locals, booking, editToken!, now);
    return { redirect: bookingPaths.guestComplete(store.id, booking.id) };
  } catch (caught) {
    // The database away is a 503 shown on the form, with what was typed.
    const e = asDatabaseAway(caught);
    if (!(e instanceof ApiError)) throw e;
    if (e.code === 'slot_taken') {
      const next = ((e.options.extra?.next_slots ?? []) as SlotJson[]).filter((s) => s.free_tables > 0);
      return {
        state: state(
          { ...base, values: { ...base.values, start: '' }, notice: takenNotice(t, next, base.values.start || undefined) },
          { remember: p.remember !== '' },
        ),
        status: 409,
      };
    }
    const first = e.code === 'duplicate_booking' ? (e.options.extra?.booking_url as string | undefined) : undefined;
    return answer({ errors: e.options.fields ?? { _: t(e.messageKey, e.options.params) }, ...(first ? { firstBooking: first } : {}) }, e.status);
  }
}

export interface PageContext {
  request: Request;
  url: URL;
  locals: App.Locals;
  cookies: AstroCookies;
  response: { status?: number; headers: Headers };
}

/** The booking page's form: as a link opens it (GET), or the answer to the form it posted. */
export async function bookingFormPage(db: Db, store: BookingStore, mode: FormMode, page: PageContext): Promise<Posted> {
  if (page.request.method !== 'POST') return { state: await linkedForm(db, store, mode, page.url.searchParams, page.locals), status: 200 };
  const form = await page.request.formData().catch(() => new FormData());
  const posted = await postedForm(db, store, mode, form, { locals: page.locals, cookies: page.cookies });
  if ('state' in posted) {
    page.response.status = posted.status;
    // What a guest typed (and a new booking's edit link) stays out of every cache.
    page.response.headers.set('cache-control', 'no-store');
  }
  return posted;
}

/**
 * A guest's new booking as its result page shows it (the form redirects there once it is made):
 * the widget's last step, with the edit link built from the token in the page's cookie.
 */
export function guestDoneState(booking: BookingView, token: string, reader: Reader, now = clock.now()): BookingFormState {
  const edit_url = publicOrigin() + bookingPaths.guestEdit(booking.storeId, booking.id, token);
  return state({ values: EMPTY, slots: [], notice: null }, { step: 'done', done: { ...bookingJson(booking, reader, now), edit_token: token, edit_url } });
}
