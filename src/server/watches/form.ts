/**
 * The watch form of /watches, without JavaScript: prefilled from the page it came from (a short
 * listing's search, a full store, a start just taken), posted to make a watch or to cancel one.
 * The same rules as the API: the form is turned into the API's input and checked by its schema.
 */
import type { AstroCookies } from 'astro';
import type { Db } from '../db/types';
import type { T } from '../../i18n';
import { notFound, validate } from '../http/api';
import { formError } from '../http/form';
import { MINUTE_MS } from '../../lib/datetime';
import { DEFAULT_PARTY, WATCH_DEFAULT_MINUTES, WATCH_WINDOW_CHOICES } from '../../lib/contract/limits';
import { watchSchema } from '../../lib/contract/watches';
import { cancelWatch, createWatch } from './service';
import { deviceWatchToken, rememberWatchDevice, watchOwner } from './http';
import { clock } from '../clock';
import { parseId } from '../../lib/validation';

export const FORM_FIELDS = ['store_id', 'area_id', 'genre', 'keyword', 'party_size', 'from', 'minutes', 'email', 'next'] as const;
export type WatchFormValues = Record<(typeof FORM_FIELDS)[number], string>;

/** What the form shows first: the query of the link that opened it. */
export function initialValues(url: URL): WatchFormValues {
  const q = (k: string) => (url.searchParams.get(k) ?? '').slice(0, 200);
  return {
    store_id: q('store_id'),
    area_id: q('area_id'),
    genre: q('genre'),
    keyword: q('keyword'),
    party_size: q('party') || q('party_size') || String(DEFAULT_PARTY),
    from: q('from'),
    minutes: String(WATCH_DEFAULT_MINUTES),
    email: '',
    next: '',
  };
}

const num = (s: string) => (/^\d{1,10}$/.test(s) ? Number(s) : s === '' ? undefined : NaN);
/** An id field: the one id rule (1…2³¹−1); anything else goes on as not a number, for its field error. */
const idOf = (s: string) => (s === '' ? undefined : (parseId(s) ?? NaN));

/** The API's input for the form: the window runs `minutes` from `from` (else from now). */
function toInput(v: WatchFormValues, now: Date): unknown {
  const minutes = WATCH_WINDOW_CHOICES.find((m) => String(m) === v.minutes) ?? WATCH_DEFAULT_MINUTES;
  const parsed = v.from ? Date.parse(v.from) : NaN;
  // A start that has passed meanwhile (the 409 of a start gone by the clock) watches from now.
  const from = Number.isNaN(parsed) ? null : new Date(Math.max(parsed, now.getTime()));
  const until = new Date((from ?? now).getTime() + minutes * MINUTE_MS);
  return {
    store_id: idOf(v.store_id),
    area_id: v.store_id ? undefined : idOf(v.area_id),
    genre: v.store_id || !v.genre ? undefined : v.genre,
    keyword: v.store_id ? undefined : v.keyword,
    party_size: num(v.party_size),
    // What is no instant (or one past the last a date can hold) goes on as typed, for its field error.
    from: from ? from.toISOString() : v.from || undefined,
    until: Number.isNaN(until.getTime()) ? undefined : until.toISOString(),
    email: v.email || undefined,
  };
}

export type WatchFormResult =
  | { ok: true; made: boolean; next: string }
  | { ok: false; status: number; values: WatchFormValues; fields: Record<string, string>; message?: string };

/** Handles a post of /watches: `intent=cancel` with `id`, else a new watch. */
export async function submitWatchForm(
  db: Db,
  t: T,
  ctx: {
    request: Request;
    cookies: AstroCookies;
    locals: { user: { id: number; email: string } | null; secure: boolean; clientAddress: string; locale: string };
  },
  origin: string,
  now = clock.now(),
): Promise<WatchFormResult> {
  const form = await ctx.request.formData().catch(() => null);
  const get = (k: string) => (typeof form?.get(k) === 'string' ? String(form!.get(k)).slice(0, 500) : '');
  const values = Object.fromEntries(FORM_FIELDS.map((k) => [k, get(k)])) as WatchFormValues;
  try {
    if (get('intent') === 'cancel') {
      const owner = watchOwner(ctx.locals, ctx.request, ctx.cookies);
      const id = parseId(get('id'));
      if (!owner || !id) throw notFound();
      await cancelWatch(db, id, owner, now);
      return { ok: true, made: false, next: values.next };
    }
    const input = validate(t, watchSchema, toInput(values, now));
    const { user } = ctx.locals;
    const who = user
      ? ({ kind: 'user', userId: user.id, email: user.email } as const)
      : ({ kind: 'guest', deviceToken: deviceWatchToken(ctx.request, ctx.cookies) } as const);
    const { deviceToken } = await createWatch(db, t, input, who, { ip: ctx.locals.clientAddress, origin, locale: ctx.locals.locale }, now);
    if (deviceToken) rememberWatchDevice(ctx.cookies, ctx.locals, deviceToken);
    return { ok: true, made: true, next: values.next };
  } catch (error) {
    const failure = formError(t, error, values);
    // The form names the window by its length: an `until` refusal is about the minutes chosen.
    const { until, ...fields } = failure.fields;
    return { ok: false, status: failure.status, values, fields: until ? { ...fields, minutes: until } : fields, message: failure.message };
  }
}
