/**
 * The listing's query: the fields of `/api/stores`, the listing pages and a store's availability, parsed
 * as forms and URLs send them (blank means "not given", full-width digits read).
 */
import * as z from 'zod/mini';
import { bookableDates, businessDate } from '../availability';
import { lineText, safeString } from '../http/api';
import { idSchema } from '../../lib/contract/fields';
import { BEYOND_GROUPS, FEE_OFFERS, FILTER_TAG_KEYS, GENRES, LIST_SORTS, TABLE_KINDS } from '../../lib/contract/enums';
import {
  BUDGET_MAX,
  DEFAULT_PARTY,
  KEYWORD_MAX,
  LATITUDE_MAX,
  LONGITUDE_MAX,
  PAGE_MAX,
  PAGE_SIZE,
  PAGE_SIZE_MAX,
  PARTY_MAX,
  PARTY_MIN,
} from '../../lib/contract/limits';
import { typedNumber } from '../../lib/validation';

/** Form fields arrive as '' when left empty: that means "not given". */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** The schema, given what `read` makes of the value as sent (zod/mini's spelling of `z.preprocess`). */
const after = <S extends z.core.$ZodType>(read: (v: unknown) => unknown, schema: S) => z.pipe(z.transform(read), schema);
/** The schema, given what `blank` leaves. */
const unlessBlank = <S extends z.core.$ZodType>(schema: S) => after(blank, schema);
/** The schema, given the number typed (full-width digits read as ASCII: `typedNumber`). */
const typed = <S extends z.core.$ZodType>(schema: S) => after(typedNumber, schema);
const optionalNumber = (schema: z.core.$ZodType<number, number>) => typed(z.optional(z.pipe(z.coerce.number(), schema)));
/** A whole number from `min` to `max`, typed in a query, `fallback` when blank or absent. */
const countField = (min: number, max: number, fallback: number) =>
  typed(z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(min), z.maximum(max))), fallback));

/** `party` in a query: 1–20, blank or absent meaning the default. */
export const partyField = countField(PARTY_MIN, PARTY_MAX, DEFAULT_PARTY);

/** A repeatable query field (`tag=a&tag=b`, or `tag=a,b`): its values, blanks dropped, each once. */
const listOf = (v: unknown) => {
  const values = (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
  return [...new Set(values.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== ''))];
};

/** Query fields that may be repeated; every other field takes its first value. */
const REPEATED = new Set(['tag']);

/** A URL's query as the listing schema reads it. */
export function listQueryParams(url: URL): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    if (REPEATED.has(k)) params[k] = [...((params[k] as string[] | undefined) ?? []), v];
    else params[k] ??= v;
  }
  return params;
}

const budgetField = optionalNumber(z.int().check(z.minimum(0), z.maximum(BUDGET_MAX)));

/** A seat kind asked for (個室, 座敷, …): the listing's filter, carried to the store page and the booking form. */
export const seatField = unlessBlank(z.optional(z.enum(TABLE_KINDS)));

/** The listing's query, shared by `/api/stores` and the listing pages. */
export const listQuerySchema = z
  .object({
    name: unlessBlank(z.optional(lineText().check(z.trim(), z.maxLength(KEYWORD_MAX)))),
    area: optionalNumber(idSchema),
    genre: unlessBlank(z.optional(z.enum(GENRES))),
    party: partyField,
    lat: optionalNumber(z.number().check(z.minimum(-LATITUDE_MAX), z.maximum(LATITUDE_MAX))),
    lng: optionalNumber(z.number().check(z.minimum(-LONGITUDE_MAX), z.maximum(LONGITUDE_MAX))),
    /** Absent: nearest first with a position, else a stable order (catalog.ts searchCatalog). */
    sort: unlessBlank(z.optional(z.enum(LIST_SORTS))),
    /** Yen per person; a store matches when its budget range overlaps [budget_min, budget_max]. */
    budget_min: budgetField,
    budget_max: budgetField,
    /** A free table of this kind within the hour. */
    seat: seatField,
    /** Tags the store must all carry (FILTER_TAGS keys). */
    tag: after(listOf, z._default(z.array(z.enum(FILTER_TAG_KEYS)), [])),
    page: countField(1, PAGE_MAX, 1),
    per_page: countField(1, PAGE_SIZE_MAX, PAGE_SIZE),
    /** The group after "now" to show more of (its "see more" link): up to BEYOND_GROUP_MORE stores instead of BEYOND_GROUP_SIZE. */
    more: unlessBlank(z.optional(z.enum(BEYOND_GROUPS))),
  })
  .check(
    z.superRefine((q, ctx) => {
      if ((q.lat === undefined) !== (q.lng === undefined)) {
        ctx.addIssue({ code: 'custom', path: [q.lat === undefined ? 'lat' : 'lng'], message: 'validation.required' });
      }
      if (q.budget_min !== undefined && q.budget_max !== undefined && q.budget_min > q.budget_max) {
        ctx.addIssue({ code: 'custom', path: ['budget_max'], message: 'discovery.validation.budgetRange' });
      }
    }),
  );

export type ListQuery = z.infer<typeof listQuerySchema>;

export const partyQuerySchema = z.object({ party: partyField });

/**
 * `date` (YYYY-MM-DD, a business day from today to 13 days ahead; default today), `party`, optionally
 * `seat` (starts at tables of that kind), and `offer` (`change`: the fees worded for moving a booking).
 */
function availabilitySchemaFor(dates: string[]) {
  return z.object({
    date: unlessBlank(z._default(safeString().check(z.refine((d) => dates.includes(d), { message: 'discovery.validation.date' })), dates[0]!)),
    party: partyField,
    seat: seatField,
    offer: unlessBlank(z._default(z.enum(FEE_OFFERS), 'book')),
  });
}
/**
 * Kept for the business day it was built on: the store page and its API read it on every view, and
 * building the schema and the fourteen dates was a twentieth of the store page's time.
 */
let keptAvailabilitySchema: { day: string; schema: ReturnType<typeof availabilitySchemaFor> } | undefined;

export const availabilityQuerySchema = (now: Date) => {
  const day = businessDate(now);
  if (keptAvailabilitySchema?.day !== day) keptAvailabilitySchema = { day, schema: availabilitySchemaFor(bookableDates(now)) };
  return keptAvailabilitySchema.schema;
};
