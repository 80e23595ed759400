/**
 * The store host's calls (`/api/store/…`): what staff send and what they get back. The server
 * parses with these schemas, the API tests parse real answers with them, and the OpenAPI document
 * is generated from them.
 */
import * as z from 'zod/mini';
import { ATTENDANCES, BOOKING_STATUSES, FEE_REASONS, FEE_STATES, GENRES, LATE_NOTICES, TABLE_KINDS } from './enums';
import { isValidDateString } from '../datetime';
import { QUEUE_CLAIM_MINUTES_MAX, QUEUE_CLAIM_MINUTES_MIN, QUEUE_MODES } from './queue';
import { LOCALE_CODES, type Locale } from '../../i18n/locales';
import { parseId } from '../validation';
import { emailField, idSchema, kanaField, kanaText, optionalText, phoneField, requiredText } from './fields';
import {
  BANNER_TEXT_MAX,
  BANNER_TITLE_MAX,
  BUDGET_MAX,
  CANCEL_FEE_YEN_MAX,
  CANCEL_FREE_HOURS_MAX,
  GRACE_MINUTES_MAX,
  GUEST_NAME_MAX,
  NOTE_MAX,
  PARTY_MAX,
  PARTY_MIN,
  STAY_MINUTES_MAX,
  STAY_MINUTES_MIN,
  STORE_LINE_MAX,
  STORE_TEXT_MAX,
  TABLE_LABEL_MAX,
  WALK_MINUTES_MAX,
} from './limits';

/** A business day in Asia/Tokyo (05:00 to 05:00 the next morning), as `YYYY-MM-DD`. */
export const dayField = z.string().check(z.refine(isValidDateString, { message: 'validation.invalid' }));

/** A numeric id in a query string (`?store_id=12`). */
export const queryIdField = z.pipe(
  z.string().check(z.refine((v) => parseId(v) !== null, { message: 'validation.invalid' })),
  z.transform((v) => parseId(v)!),
);

/** `GET /api/store/tables` and the other lists: which store (the account's first when left out). */
export const storeQuerySchema = z.object({ store_id: z.optional(queryIdField) });

/**
 * `GET /api/store/bookings`: one business day (today's when left out) at one of the account's
 * stores (its first when left out).
 */
export const storeDayQuerySchema = z.object({ date: z.optional(dayField), ...storeQuerySchema.shape });

/** In a store call's body: which of the account's stores (its first when left out). */
const storeChoice = z.optional(idSchema);

const instant = z.string();

/** A table as a booking or a block names it. */
const tableRef = z.object({ id: z.int(), label: z.string(), kind: z.enum(TABLE_KINDS) });

/** A booking as the store sees it: who is coming, how many, at which table, and what they asked for. */
export const storeBookingSchema = z.object({
  id: z.int(),
  code: z.string(),
  store_id: z.int(),
  start: instant,
  end: instant,
  party_size: z.int(),
  status: z.enum(BOOKING_STATUSES),
  table: tableRef,
  /** The diner's account details, or the guest's as typed in the booking form. */
  contact: z.object({ name: z.string(), name_kana: z.string(), phone: z.string(), email: z.string(), guest: z.boolean() }),
  note: z.string(),
  /** The kind of seat the diner asked for, if any (the table is the server's choice). */
  seat_preference: z.nullable(z.enum(TABLE_KINDS)),
  /** Marked at the door. */
  attendance: z.nullable(z.enum(ATTENDANCES)),
  /** Set when the store cancelled it: the reason the diner was given. */
  store_cancel_reason: z.nullable(z.string()),
  /** Until when the last mark (arrived, no-show, cancelled by the store) can be undone; null when none can. */
  undo_until: z.nullable(instant),
  /** The diner's latest word on the way (on their way, 10 or 15 minutes late) and when they sent it. */
  late: z.nullable(z.object({ notice: z.enum(LATE_NOTICES), at: instant })),
  /** The end of the store's grace period: from then a party not arrived may have its table released (a no-show mark). */
  release_from: instant,
  created_at: instant,
  updated_at: instant,
  cancelled_at: z.nullable(instant),
});

/** The day's bookings, the latest change first. */
export const storeDaySchema = z.object({ store_id: z.int(), date: z.string(), items: z.array(storeBookingSchema) });

/** An instant with its offset, as the API writes it (`2026-11-21T19:00:00+09:00`). */
const instantField = z.iso.datetime({ offset: true });

/** False only for two valid instants in the wrong order (an invalid one has its own message). */
const endsAfterStart = (start: string, end: string) =>
  !z.safeParse(instantField, start).success || !z.safeParse(instantField, end).success || Date.parse(end) > Date.parse(start);

/**
 * A mark on a booking: arrived or no-show, or cancelled by the store with the reason the diner is
 * told (`PATCH /api/store/bookings/{id}` with `mark`).
 */
export const markSchema = z
  .object({ mark: z.enum([...ATTENDANCES, 'cancelled']), reason: optionalText(NOTE_MAX) })
  .check(z.refine((v) => v.mark !== 'cancelled' || (v.reason ?? '').trim() !== '', { message: 'validation.required', path: ['reason'] }));

const partySize = z.int().check(z.minimum(PARTY_MIN), z.maximum(PARTY_MAX));
const startField = z.iso.datetime({ offset: true });

/**
 * `PATCH /api/store/bookings/{id}`: either a mark (`mark`: arrived, no_show or cancelled with a
 * `reason`; `null` undoes the last mark within MARK_UNDO_MINUTES), or a change of `start`,
 * `party_size`, `table_id` and `note` by the same rules as a diner's change (the diner is mailed).
 */
export const storeBookingPatchSchema = z
  .object({
    mark: z.optional(z.nullable(z.enum([...ATTENDANCES, 'cancelled']))),
    reason: optionalText(NOTE_MAX),
    start: z.optional(startField),
    party_size: z.optional(partySize),
    table_id: z.optional(idSchema),
    note: optionalText(NOTE_MAX),
  })
  .check(
    z.refine((v) => v.mark !== 'cancelled' || (v.reason ?? '').trim() !== '', { message: 'validation.required', path: ['reason'] }),
    z.refine((v) => v.mark === undefined || [v.start, v.party_size, v.table_id, v.note].every((x) => x === undefined), {
      message: 'store.validation.markOrChange',
      path: ['mark'],
    }),
    z.refine((v) => v.mark !== undefined || [v.start, v.party_size, v.table_id, v.note].some((x) => x !== undefined), {
      message: 'booking.error.nothingToChange',
      path: ['_'],
    }),
  );

/**
 * `POST /api/store/bookings`: a booking the store writes down (a phone call), by the same rules
 * and under the same lock as an online booking; the contact is checked as a guest's (kana, a
 * Japanese phone number as typed, full-width digits included); the e-mail address is optional
 * (the diner is mailed the confirmation, in `locale`, when there is one). Staff may name the table, walk-in-only
 * ones included; else the smallest free fitting table is taken.
 */
export const staffBookingSchema = z.object({
  store_id: storeChoice,
  start: startField,
  party_size: partySize,
  name: requiredText(GUEST_NAME_MAX),
  name_kana: kanaField,
  phone: phoneField,
  email: z.optional(emailField),
  note: optionalText(NOTE_MAX),
  table_id: z.optional(idSchema),
  /** The diner's language, for their mails (Japanese when left out). */
  locale: z.optional(z.enum(LOCALE_CODES as unknown as [Locale, ...Locale[]])),
});

/**
 * `POST /api/store/walk-ins`: seat a party at the door now, at `table_id` or at the table the
 * server suggests (walk-in-only tables first, then the smallest free one that fits); the table is
 * held from the 15-minute mark just past for the party's turn time, ending at the next mark
 * (never past closing).
 */
export const walkInSchema = z.object({ store_id: storeChoice, party_size: partySize, table_id: z.optional(idSchema), name: optionalText(GUEST_NAME_MAX) });

/** A party size in a query string (`?party_size=4`). */
const queryPartyField = z.pipe(z.pipe(z.string().check(z.regex(/^\d{1,3}$/, { message: 'validation.invalid' })), z.transform(Number)), partySize);

/** `GET /api/store/walk-ins/suggest`: the table a walk-in of `party_size` would get now. */
export const walkInSuggestQuerySchema = z.object({ store_id: z.optional(queryIdField), party_size: queryPartyField });

/** A party seated at the door. */
export const walkInJsonSchema = z.object({
  id: z.int(),
  store_id: z.int(),
  table: tableRef,
  party_size: z.int(),
  name: z.string(),
  start: instant,
  end: instant,
  created_at: instant,
  updated_at: instant,
});

export const walkInListSchema = z.object({ store_id: z.int(), date: z.string(), items: z.array(walkInJsonSchema) });

/** The table a walk-in would be seated at now, and for how long; `table` null when none is free. */
export const walkInSuggestionSchema = z.object({
  store_id: z.int(),
  party_size: z.int(),
  table: z.nullable(z.extend(tableRef, { min_party: z.int(), max_party: z.int(), online: z.boolean() })),
  start: z.nullable(instant),
  end: z.nullable(instant),
});

/**
 * `POST /api/store/blocks`: hold one table of the store from `start` to `end` (a walk-in, a private
 * event); the reason is for the staff.
 */
export const blockSchema = z
  .object({ store_id: storeChoice, table_id: idSchema, start: instantField, end: instantField, reason: optionalText(NOTE_MAX) })
  .check(z.refine((v) => endsAfterStart(v.start, v.end), { message: 'store.validation.endBeforeStart', path: ['end'] }));

/** `GET /api/store/blocks`: the blocks touching one business day. */
export const blockListQuerySchema = storeDayQuerySchema;

/** A table the store holds. `released_at` is set once it was given back. */
export const blockJsonSchema = z.object({
  id: z.int(),
  store_id: z.int(),
  table: tableRef,
  start: instant,
  end: instant,
  reason: z.string(),
  created_at: instant,
  released_at: z.nullable(instant),
});

export const blockListSchema = z.object({ store_id: z.int(), date: z.string(), items: z.array(blockJsonSchema) });

/** Minutes after midnight as `HH:MM`; past 24:00 for hours running into the night (`26:00`). */
export const CLOCK_TEXT_LENGTH = 'HH:MM'.length;
export const clockField = z.string().check(z.regex(/^([0-3][0-9]|4[0-7]):[0-5][0-9]$/, { message: 'validation.invalid' }));
const isClock = (v: unknown) => z.safeParse(clockField, v).success;
export const clockMinutes = (v: string) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3, 5));
export const minutesClock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** What every opening must be: opens before 24:00, closes after it opens. */
type Opening = { opens: string; closes: string };
const openingChecks = [
  z.refine<Opening>((o) => !isClock(o.opens) || clockMinutes(o.opens) < 24 * 60, { message: 'validation.invalid', path: ['opens'] }),
  // Compared only when both are times (a malformed one has its own message).
  z.refine<Opening>((o) => !isClock(o.opens) || !isClock(o.closes) || clockMinutes(o.closes) > clockMinutes(o.opens), {
    message: 'store.validation.endBeforeStart',
    path: ['closes'],
  }),
];

/** A weekday: 0 = Sunday, 1 = Monday … 6 = Saturday (Asia/Tokyo). */
export const weekdayField = z.int().check(z.minimum(0, { message: 'store.validation.weekday' }), z.maximum(6, { message: 'store.validation.weekday' }));

/** One opening of a weekday (0 = Sunday … 6 = Saturday, Asia/Tokyo). */
const openingSchema = z.object({ weekday: weekdayField, opens: clockField, closes: clockField }).check(...openingChecks);

/** True when no two openings of one day overlap (checked once every time is well formed). */
const apart = (hours: readonly { opens: string; closes: string; weekday?: number }[]) =>
  !hours.every((h) => isClock(h.opens) && isClock(h.closes)) ||
  hours.every((a, i) =>
    hours.every(
      (b, j) => i === j || a.weekday !== b.weekday || clockMinutes(a.closes) <= clockMinutes(b.opens) || clockMinutes(b.closes) <= clockMinutes(a.opens),
    ),
  );

/** At most this many openings on one weekday (lunch, dinner, a late sitting). */
const WEEKDAY_OPENINGS_MAX = 3;

/** `PUT /api/store/hours`: the whole week; a weekday left out is closed. Openings of one day never overlap. */
export const hoursSchema = z
  .object({ store_id: storeChoice, hours: z.array(openingSchema).check(z.maxLength(21)) })
  .check(z.refine((v) => apart(v.hours), { message: 'store.validation.hoursOverlap', path: ['hours'] }));

/**
 * `PUT /api/store/hours/{weekday}`: one weekday's openings (0 = Sunday … 6 = Saturday), the other
 * days untouched; `[]` closes that weekday.
 */
export const weekdayHoursSchema = z
  .object({
    store_id: storeChoice,
    hours: z.array(z.object({ opens: clockField, closes: clockField }).check(...openingChecks)).check(z.maxLength(WEEKDAY_OPENINGS_MAX)),
  })
  .check(z.refine((v) => apart(v.hours), { message: 'store.validation.hoursOverlap', path: ['hours'] }));

const openingJson = z.object({ weekday: z.int(), opens: z.string(), closes: z.string() });

/** The weekly hours; after a change, the bookings to come that now fall outside them (never cancelled: the store decides). */
export const hoursJsonSchema = z.object({
  store_id: z.int(),
  hours: z.array(openingJson),
  outside_hours: z.optional(z.array(storeBookingSchema)),
});

/** At most this many openings on one one-off day (lunch, dinner, a late sitting). */
export const CLOSURE_OPENINGS_MAX = 3;

/**
 * `PUT /api/store/closures`: one business day (05:00 to 05:00, so hours after its midnight go with
 * it) closed (臨時休業, `hours` empty) or open other hours than the week's (times from that day's
 * midnight, `26:00` past it). Setting a day again replaces what was set for it. The day is today's
 * business day or one of the bookable days after it (docs/hours-and-closures.md).
 */
export const closureSchema = z
  .object({
    store_id: storeChoice,
    date: dayField,
    hours: z.array(z.object({ opens: clockField, closes: clockField }).check(...openingChecks)).check(z.maxLength(CLOSURE_OPENINGS_MAX)),
    note: optionalText(NOTE_MAX),
  })
  .check(z.refine((v) => apart(v.hours), { message: 'store.validation.hoursOverlap', path: ['hours'] }));

/** A one-off day: `closed` when no openings are left (臨時休業). */
export const closureJsonSchema = z.object({
  id: z.int(),
  store_id: z.int(),
  date: z.string(),
  closed: z.boolean(),
  hours: z.array(z.object({ opens: z.string(), closes: z.string() })),
  note: z.string(),
  updated_at: instant,
});

/** `GET /api/store/closures`: the one-off days from today's business day on, earliest first. */
export const closureListSchema = z.object({ store_id: z.int(), items: z.array(closureJsonSchema) });

/**
 * After setting or removing a one-off day: the day as it now stands (null once removed) and the
 * confirmed bookings to come that now fall outside the store's hours, for the store to call, move
 * or cancel with a reason; none of them is cancelled by this.
 */
export const closureChangeSchema = z.object({
  store_id: z.int(),
  date: z.string(),
  closure: z.nullable(closureJsonSchema),
  outside_hours: z.array(storeBookingSchema),
});

/** A party size's turn time: how long a party of that size keeps its table. */
const turnTimeSchema = z.object({
  party_size: z.int().check(z.minimum(PARTY_MIN), z.maximum(PARTY_MAX)),
  minutes: z.int().check(z.minimum(STAY_MINUTES_MIN), z.maximum(STAY_MINUTES_MAX)),
});

/** A table as staff set it: who it seats (`min_party`–`max_party`), and whether diners can book it online. */
export const storeTableSchema = z.extend(tableRef, { min_party: z.int(), max_party: z.int(), online: z.boolean() });

/**
 * `GET /api/store/tables`: the store's tables (for choosing one to block; `online` false: walk-in
 * only, never offered to diners) and its turn times (`stay_minutes` for party sizes not listed).
 */
export const storeTablesSchema = z.object({
  store_id: z.int(),
  stay_minutes: z.int(),
  turn_times: z.array(turnTimeSchema),
  items: z.array(storeTableSchema),
});

/** False only when both ends are numbers and the range is upside down (a bad one has its own message). */
const rangeInOrder = (v: { min_party?: unknown; max_party?: unknown }) =>
  typeof v.min_party !== 'number' || typeof v.max_party !== 'number' || v.max_party >= v.min_party;
const tableLabel = requiredText(TABLE_LABEL_MAX);

/**
 * `POST /api/store/tables`: a new table at one of the account's stores; its label is not another
 * table's of that store. Online-bookable unless `online` is false.
 */
export const tableCreateSchema = z
  .object({ store_id: storeChoice, label: tableLabel, kind: z.enum(TABLE_KINDS), min_party: partySize, max_party: partySize, online: z.optional(z.boolean()) })
  .check(z.refine(rangeInOrder, { message: 'store.validation.partyRange', path: ['max_party'] }));

/**
 * `PATCH /api/store/tables/{id}`: any of the label, kind, party range and online flag (`online`
 * false: walk-in only, staff can still block it). A range that would leave out a booking to come
 * at the table is refused (409 `table_in_use`): move that booking first.
 */
export const tableSettingsSchema = z
  .object({
    label: z.optional(tableLabel),
    kind: z.optional(z.enum(TABLE_KINDS)),
    min_party: z.optional(partySize),
    max_party: z.optional(partySize),
    online: z.optional(z.boolean()),
  })
  .check(
    z.refine(rangeInOrder, { message: 'store.validation.partyRange', path: ['max_party'] }),
    z.refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'booking.error.nothingToChange', path: ['_'] }),
  );

/** `PUT /api/store/turn-times`: the default stay and the turn time of some party sizes (each size once). */
export const turnTimesSchema = z
  .object({ store_id: storeChoice, stay_minutes: turnTimeSchema.shape.minutes, turn_times: z.array(turnTimeSchema).check(z.maxLength(PARTY_MAX)) })
  .check(
    z.refine((v) => new Set(v.turn_times.map((t) => t.party_size)).size === v.turn_times.length, {
      message: 'store.validation.turnTimeTwice',
      path: ['turn_times'],
    }),
  );

/** A month of business days in Asia/Tokyo, as `YYYY-MM`. */
export const monthField = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'validation.invalid' }));

/**
 * `GET /api/store/fees`: the fees owed for bookings starting in one month (this business day's when
 * left out), of every state or of one, at one of the account's stores.
 */
export const storeFeeQuerySchema = z.object({ month: z.optional(monthField), state: z.optional(z.enum(FEE_STATES)), ...storeQuerySchema.shape });

/**
 * A fee a booking owes by the one fee rule (src/lib/contract/fee.ts `feeOwed`): why, since when,
 * how much, and what the store did about it (`due` until it waives it or collects it itself,
 * outside Sugu: Sugu takes no payment).
 */
export const storeFeeJsonSchema = z.object({
  reason: z.enum(FEE_REASONS),
  /** When the diner cancelled, or when the store marked the no-show. */
  owed_at: instant,
  per_person: z.int(),
  total: z.int(),
  state: z.enum(FEE_STATES),
  note: z.string(),
  /** When the state was last set by the store; null while it never was. */
  state_updated_at: z.nullable(instant),
});

/** A booking that owes a fee, with that fee. */
export const storeFeeItemSchema = z.object({ booking: storeBookingSchema, fee: storeFeeJsonSchema });

/** The month's fees, earliest start first, and the month's totals in yen by state (whatever `state` filters). */
export const storeFeeListSchema = z.object({
  store_id: z.int(),
  month: z.string(),
  state: z.nullable(z.enum(FEE_STATES)),
  totals: z.object({ due: z.int(), waived: z.int(), collected: z.int() }),
  items: z.array(storeFeeItemSchema),
});

/** What happened to a booking's fee, oldest first. */
export const FEE_EVENTS = ['cancelled', 'no_show', 'mark_undone', ...FEE_STATES] as const;

/** One booking's fee (null when it owes none, e.g. a no-show mark undone) and its history. */
export const storeFeeDetailSchema = z.object({
  booking: storeBookingSchema,
  fee: z.nullable(storeFeeJsonSchema),
  history: z.array(z.object({ at: instant, event: z.enum(FEE_EVENTS), actor: z.nullable(z.string()), note: z.string() })),
});

/**
 * `PATCH /api/store/fees/{bookingId}`: the store waived the fee, or collected it itself outside
 * Sugu, with an optional note; `due` puts it back (undo). Refused (409) for a booking that owes none.
 */
export const feeStateSchema = z.object({ state: z.enum(FEE_STATES), note: optionalText(NOTE_MAX) });

/**
 * `PUT /api/store/policy`: the cancellation-fee policy the one fee rule reads — cancelling is free
 * until `cancel_free_hours` before the start, then `cancel_fee_yen` per person (0: no fee) — and
 * the store's own wording of it, shown to diners before they book. The fee rule reads the store's
 * numbers when a booking is cancelled, so a change applies to bookings already made as well.
 */
export const storePolicySchema = z.object({
  store_id: storeChoice,
  cancel_free_hours: z.int().check(z.minimum(0), z.maximum(CANCEL_FREE_HOURS_MAX)),
  cancel_fee_yen: z.int().check(z.minimum(0), z.maximum(CANCEL_FEE_YEN_MAX)),
  cancellation_policy: optionalText(STORE_TEXT_MAX, 'multiline'),
});

/** The cancellation-fee policy as it stands. */
export const storePolicyJsonSchema = z.object({ store_id: z.int(), cancel_free_hours: z.int(), cancel_fee_yen: z.int(), cancellation_policy: z.string() });

/**
 * `PUT /api/store/arrivals`: how the store treats a party that has not arrived. `grace_minutes`
 * after the start the ledger offers 「席を解放」; with `auto_release` the table is released by
 * itself then (src/server/staff/autoRelease.ts), which gives it back to the listing and the watches.
 */
export const storeArrivalsSchema = z.object({
  store_id: storeChoice,
  grace_minutes: z.int().check(z.minimum(0), z.maximum(GRACE_MINUTES_MAX)),
  auto_release: z.boolean(),
  /** The 順番待ち's claim window: minutes a called party has to confirm (absent: unchanged). */
  queue_claim_minutes: z.optional(z.int().check(z.minimum(QUEUE_CLAIM_MINUTES_MIN), z.maximum(QUEUE_CLAIM_MINUTES_MAX))),
  /** When diners may join the 順番待ち: only while nothing is free within the hour, or always (absent: unchanged). */
  queue_mode: z.optional(z.enum(QUEUE_MODES)),
});

/** The store's handling of late parties and of its 順番待ち as it stands. */
export const storeArrivalsJsonSchema = z.object({
  store_id: z.int(),
  grace_minutes: z.int(),
  auto_release: z.boolean(),
  queue_claim_minutes: z.int(),
  queue_mode: z.enum(QUEUE_MODES),
});

const yen = z.int().check(z.minimum(0), z.maximum(BUDGET_MAX));

/**
 * `PUT /api/store/details`: the store's details as diners see them on its page and in listings
 * (name, kana, genre, address, station and the walk from it, phone, budget per person,
 * description). The budget's upper bound is at least its lower.
 */
export const storeDetailsSchema = z
  .object({
    store_id: storeChoice,
    name: requiredText(STORE_LINE_MAX),
    name_kana: kanaText(STORE_LINE_MAX),
    genre: z.enum(GENRES),
    address: requiredText(STORE_LINE_MAX),
    station: requiredText(STORE_LINE_MAX),
    walk_minutes: z.int().check(z.minimum(0), z.maximum(WALK_MINUTES_MAX)),
    phone: phoneField,
    budget_min: yen,
    budget_max: yen,
    description: optionalText(STORE_TEXT_MAX, 'multiline'),
  })
  .check(z.refine((v) => v.budget_max >= v.budget_min, { message: 'store.validation.budgetOrder', path: ['budget_max'] }));

/** A store's details as diners see them, with its policy (`GET /api/store/details`). */
export const storeDetailsJsonSchema = z.object({
  store_id: z.int(),
  name: z.string(),
  name_kana: z.string(),
  genre: z.enum(GENRES),
  address: z.string(),
  station: z.string(),
  walk_minutes: z.int(),
  phone: z.string(),
  budget_min: z.int(),
  budget_max: z.int(),
  description: z.string(),
  cancel_free_hours: z.int(),
  cancel_fee_yen: z.int(),
  cancellation_policy: z.string(),
});

/** False only for two valid days in the wrong order (a malformed one has its own message). */
const daysInOrder = (startsOn: string, endsOn: string) => !isValidDateString(startsOn) || !isValidDateString(endsOn) || endsOn >= startsOn;

/**
 * `POST /api/store/banners`: a campaign banner for the diner home, shown from `starts_on` to
 * `ends_on` (Asia/Tokyo business days, both included). Its only link is to the store's own page
 * (`link_to_store`); no address is taken. The server also refuses a banner that has ended, starts
 * too far ahead, runs too long, or one more than a store may have.
 */
export const bannerSchema = z
  .object({
    store_id: storeChoice,
    title: requiredText(BANNER_TITLE_MAX),
    body: optionalText(BANNER_TEXT_MAX),
    link_to_store: z.optional(z.boolean()),
    starts_on: dayField,
    ends_on: dayField,
  })
  .check(z.refine((v) => daysInOrder(v.starts_on, v.ends_on), { message: 'store.validation.bannerDaysOrder', path: ['ends_on'] }));

/** `PATCH /api/store/banners/{id}`: the fields to change; the days are checked together with those kept. */
export const bannerPatchSchema = z
  .object({
    title: z.optional(requiredText(BANNER_TITLE_MAX)),
    body: optionalText(BANNER_TEXT_MAX),
    link_to_store: z.optional(z.boolean()),
    starts_on: z.optional(dayField),
    ends_on: z.optional(dayField),
  })
  .check(
    z.refine((v) => v.starts_on === undefined || v.ends_on === undefined || daysInOrder(v.starts_on, v.ends_on), {
      message: 'store.validation.bannerDaysOrder',
      path: ['ends_on'],
    }),
    z.refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'booking.error.nothingToChange', path: ['_'] }),
  );

/** A banner as the store sees it: `state` says whether it shows today, later, or no more. */
export const bannerJsonSchema = z.object({
  id: z.int(),
  store_id: z.int(),
  title: z.string(),
  body: z.string(),
  link_to_store: z.boolean(),
  starts_on: z.string(),
  ends_on: z.string(),
  state: z.enum(['current', 'upcoming', 'past']),
  created_at: instant,
  updated_at: instant,
});

/** `GET /api/store/banners`: the store's banners, current and upcoming (earliest first), then the latest past ones. */
export const bannerListSchema = z.object({ store_id: z.int(), today: z.string(), items: z.array(bannerJsonSchema) });

/**
 * `POST /api/login`: the spec's `{token, user_id}` and the auth state's `tenant` and `store_id`
 * (null for a diner); staff working for several stores get them all in `store_ids`.
 */
export const loginAnswerSchema = z.object({
  token: z.string(),
  user_id: z.int(),
  tenant: z.nullable(z.string()),
  store_id: z.nullable(z.int()),
  store_ids: z.array(z.int()),
});

export type StoreBookingJson = z.infer<typeof storeBookingSchema>;
export type StoreDayJson = z.infer<typeof storeDaySchema>;
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export type StoreTablesJson = z.infer<typeof storeTablesSchema>;
export type TableSettingsInput = z.infer<typeof tableSettingsSchema>;
export type TableCreateInput = z.infer<typeof tableCreateSchema>;
export type StoreTableJson = z.infer<typeof storeTableSchema>;
export type TurnTimesInput = z.infer<typeof turnTimesSchema>;
export type HoursInput = z.infer<typeof hoursSchema>;
export type HoursJson = z.infer<typeof hoursJsonSchema>;
export type MarkInput = z.infer<typeof markSchema>;
export type BlockInput = z.infer<typeof blockSchema>;
export type BlockJson = z.infer<typeof blockJsonSchema>;
export type ClosureInput = z.infer<typeof closureSchema>;
export type ClosureJson = z.infer<typeof closureJsonSchema>;
export type ClosureChangeJson = z.infer<typeof closureChangeSchema>;
export type StoreBookingPatch = z.infer<typeof storeBookingPatchSchema>;
export type StaffBookingInput = z.infer<typeof staffBookingSchema>;
export type WalkInInput = z.infer<typeof walkInSchema>;
export type WalkInJson = z.infer<typeof walkInJsonSchema>;
export type WalkInSuggestion = z.infer<typeof walkInSuggestionSchema>;
export type WeekdayHoursInput = z.infer<typeof weekdayHoursSchema>;
export type WalkInListJson = z.infer<typeof walkInListSchema>;
export type StorePolicyInput = z.infer<typeof storePolicySchema>;
export type StorePolicyJson = z.infer<typeof storePolicyJsonSchema>;
export type StoreArrivalsInput = z.infer<typeof storeArrivalsSchema>;
export type StoreArrivalsJson = z.infer<typeof storeArrivalsJsonSchema>;
export type StoreDetailsInput = z.infer<typeof storeDetailsSchema>;
export type StoreDetailsJson = z.infer<typeof storeDetailsJsonSchema>;
export type StoreFeeJson = z.infer<typeof storeFeeJsonSchema>;
export type StoreFeeItem = z.infer<typeof storeFeeItemSchema>;
export type StoreFeeList = z.infer<typeof storeFeeListSchema>;
export type StoreFeeDetail = z.infer<typeof storeFeeDetailSchema>;
export type FeeStateInput = z.infer<typeof feeStateSchema>;
export type BannerInput = z.infer<typeof bannerSchema>;
export type BannerPatch = z.infer<typeof bannerPatchSchema>;
export type BannerJson = z.infer<typeof bannerJsonSchema>;
export type BannerListJson = z.infer<typeof bannerListSchema>;
