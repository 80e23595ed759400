/**
 * The plain forms of the store's details screen and its edit page: one weekday's hours, a one-off
 * day (臨時休業 or changed hours) set or removed, the cancellation-fee policy, the handling of late
 * parties, the details diners see. Each form's fields are read as the store API's JSON would carry them and handed to the same
 * service (PUT /api/store/hours/{weekday}, /api/store/closures, /api/store/policy, /api/store/arrivals,
 * /api/store/details), so no rule lives here twice. A refusal comes back with what was typed and
 * each field's error, named as the form names its inputs.
 */
import type { Db } from '../db/types';
import { ApiError, notFound, translate, validate } from '../http/api';
import type { Flash } from '../../lib/flash';
import type { T } from '../../i18n';
import { closureSchema, storeArrivalsSchema, storeDetailsSchema, storePolicySchema, weekdayHoursSchema, type StoreBookingJson } from '../../lib/contract/staff';
import { parseId, wholeNumber } from '../../lib/validation';
import type { StaffScope } from './access';
import { removeClosure, setClosure } from './closures';
import { setWeekdayHours } from './hours';
import { withinStaffLimits } from './limits';
import { detailsTranslator, setArrivals, setPolicy, setStoreDetails } from './profile';

/** The openings a day's form offers: as many as the store API takes for one day. */
export const FORM_OPENINGS = 3;

/** A refused form: drawn again with what was typed and each field's error. */
export interface FormRefusal {
  /** Which form: `hours-<weekday>`, `closure`, `policy`, `arrivals` or `details`. */
  form: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string;
  status: number;
}

export type DetailsOutcome = { flash: Flash } | { refused: FormRefusal };

/** The openings typed in a day's rows (`opens_0`, `closes_0` …); a row left blank is no opening. */
function openings(values: Record<string, string>) {
  const hours: { opens: string; closes: string }[] = [];
  const rows: number[] = [];
  for (let i = 0; i < FORM_OPENINGS; i++) {
    const opens = (values[`opens_${i}`] ?? '').trim();
    const closes = (values[`closes_${i}`] ?? '').trim();
    if (opens === '' && closes === '') continue;
    hours.push({ opens, closes });
    rows.push(i);
  }
  return { hours, rows };
}

/** A schema's field names as the form names its inputs: `hours.1.opens` is row `rows[1]`'s `opens_<row>`. */
function formFields(fields: Record<string, string>, rows: number[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields)) {
    const m = /^hours\.(\d+)\.(opens|closes)$/.exec(key);
    out[m ? `${m[2]}_${rows[Number(m[1])] ?? m[1]}` : key] ??= message;
  }
  return out;
}

/** The sentence after a change that left bookings outside the hours (never cancelled: listed on the page). */
function outsideNote(t: T, outside: StoreBookingJson[]): string {
  return outside.length ? ` ${t('storehost.details.outsideAfterChange', { count: outside.length })}` : '';
}

const FIELD_NAMES = {
  hours: ['weekday', 'closed', ...Array.from({ length: FORM_OPENINGS }, (_, i) => [`opens_${i}`, `closes_${i}`]).flat()],
  closure: ['date', 'closed', 'note', ...Array.from({ length: FORM_OPENINGS }, (_, i) => [`opens_${i}`, `closes_${i}`]).flat()],
  policy: ['cancel_free_hours', 'cancel_fee_yen', 'cancellation_policy'],
  arrivals: ['grace_minutes', 'auto_release', 'queue_claim_minutes', 'queue_always'],
  details: ['name', 'name_kana', 'genre', 'address', 'station', 'walk_minutes', 'phone', 'budget_min', 'budget_max', 'description'],
} as const;

/** Handles one post of the details screen (or, with `action=details`, the edit page) for `storeId`, already the staff's. */
export async function detailsPost(
  db: Db,
  scope: StaffScope,
  storeId: number,
  form: FormData | null,
  locals: { t: T; locale: string },
): Promise<DetailsOutcome> {
  const { t } = locals;
  const text = (key: string) => {
    const value = form?.get(key);
    return typeof value === 'string' ? value : '';
  };
  const doing = text('action');
  const kind = doing in FIELD_NAMES ? (doing as keyof typeof FIELD_NAMES) : null;
  const values: Record<string, string> = Object.fromEntries((kind ? FIELD_NAMES[kind] : []).map((k) => [k, text(k)]));
  const formName = doing === 'hours' ? `hours-${values.weekday}` : doing;
  const done = (message: string): DetailsOutcome => ({ flash: { kind: 'success', message } });
  let rows: number[] = [];
  try {
    if (doing === 'hours') {
      const weekday = /^[0-6]$/.test(values.weekday!) ? Number(values.weekday) : null;
      if (weekday === null) throw notFound();
      const typed = openings(values);
      rows = typed.rows;
      // 定休日 ticked: the day is closed whatever its rows hold; else a day with no opening is a slip.
      const closed = values.closed !== '';
      if (!closed && typed.hours.length === 0)
        throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { opens_0: t('storehost.details.hoursOrClosed') } });
      const input = validate(t, weekdayHoursSchema, { store_id: storeId, hours: closed ? [] : typed.hours });
      const saved = await withinStaffLimits(db, scope, () => setWeekdayHours(db, scope, weekday, input));
      return done(t('storehost.details.hoursSaved', { day: weekdayName(weekday, locals.locale) }) + outsideNote(t, saved.outside_hours ?? []));
    }
    if (doing === 'closure') {
      const typed = openings(values);
      rows = typed.rows;
      const closed = values.closed !== '';
      if (!closed && typed.hours.length === 0)
        throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { opens_0: t('storehost.details.hoursOrClosed') } });
      const note = values.note!.trim();
      const input = validate(t, closureSchema, { store_id: storeId, date: values.date, hours: closed ? [] : typed.hours, ...(note ? { note } : {}) });
      const saved = await withinStaffLimits(db, scope, () => setClosure(db, translate(t), scope, input));
      return done(t('storehost.details.closureSaved') + outsideNote(t, saved.outside_hours));
    }
    if (doing === 'closure_remove') {
      const id = parseId(text('closure'));
      if (id === null) throw notFound();
      const removed = await withinStaffLimits(db, scope, () => removeClosure(db, scope, id));
      return done(t('storehost.details.closureRemoved') + outsideNote(t, removed.outside_hours));
    }
    if (doing === 'policy') {
      const input = validate(t, storePolicySchema, {
        store_id: storeId,
        cancel_free_hours: wholeNumber(values.cancel_free_hours!),
        cancel_fee_yen: wholeNumber(values.cancel_fee_yen!),
        cancellation_policy: values.cancellation_policy,
      });
      await withinStaffLimits(db, scope, () => setPolicy(db, scope, input));
      return done(t('storehost.details.policySaved'));
    }
    if (doing === 'arrivals') {
      // An unticked checkbox sends nothing: absent is "release by a tap only".
      const input = validate(t, storeArrivalsSchema, {
        store_id: storeId,
        grace_minutes: wholeNumber(values.grace_minutes!),
        auto_release: values.auto_release !== '',
        // A claim window left blank keeps the store's; the unticked 「いつでも」 box is "only when full".
        queue_claim_minutes: wholeNumber(values.queue_claim_minutes!),
        queue_mode: values.queue_always !== '' ? 'always' : 'when_full',
      });
      await withinStaffLimits(db, scope, () => setArrivals(db, scope, input));
      return done(t('storehost.details.arrivalsSaved'));
    }
    if (doing === 'details') {
      const input = validate(detailsTranslator(t), storeDetailsSchema, {
        store_id: storeId,
        name: values.name,
        name_kana: values.name_kana,
        genre: values.genre,
        address: values.address,
        station: values.station,
        walk_minutes: wholeNumber(values.walk_minutes!),
        phone: values.phone,
        budget_min: wholeNumber(values.budget_min!),
        budget_max: wholeNumber(values.budget_max!),
        description: values.description,
      });
      await withinStaffLimits(db, scope, () => setStoreDetails(db, scope, input));
      return done(t('storehost.details.detailsSaved'));
    }
    throw notFound();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const message = t(error.messageKey, error.options.params);
    if (!kind) return { flash: { kind: 'error', message } };
    return { refused: { form: formName, values, errors: formFields(error.options.fields ?? {}, rows), message, status: error.status } };
  }
}

/** A weekday's name in the reader's language (0 = Sunday … 6 = Saturday), as the hours rows label it. */
export function weekdayName(weekday: number, locale: string): string {
  // 2026-11-22 was a Sunday: noon UTC is the same day in Tokyo.
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'Asia/Tokyo' }).format(new Date(Date.UTC(2026, 10, 22 + weekday, 3)));
}
