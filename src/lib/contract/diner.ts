/**
 * What the diner's and the account's calls answer (`/api/me`, `/api/areas`, `/api/stores…`,
 * `/api/favourites`, `/api/history`, `/api/watches`): the OpenAPI document is generated from these,
 * and every API test checks each answer against that document, so the server, the document and
 * the islands' generated client cannot drift apart.
 */
import * as z from 'zod/mini';
import { GENRES } from './enums';
import { slotSchema } from './responses';

/** The signed-in account (`GET`/`PATCH /api/me`). */
export const accountSchema = z.object({
  id: z.int(),
  email: z.string(),
  name: z.string(),
  name_kana: z.string(),
  phone: z.string(),
  email_verified: z.boolean(),
});

/** `GET /api/areas`: every area with how many stores it has. */
export const areaListSchema = z.array(z.object({ id: z.int(), slug: z.string(), name: z.string(), store_count: z.int() }));

const photoSchema = z.object({ src: z.string(), width: z.int(), height: z.int(), alt: z.string() });
const areaRef = z.object({ id: z.int(), name: z.string() });
/** Yen per person. */
const budgetSchema = z.object({ min: z.int(), max: z.int() });

/** What every card says of a store: who and where it is, its budget and its photo. */
const storeFaceSchema = z.object({
  id: z.int(),
  name: z.string(),
  name_kana: z.string(),
  genre: z.enum(GENRES),
  genre_label: z.string(),
  area: areaRef,
  station: z.string(),
  walk_minutes: z.int(),
  budget: budgetSchema,
  photo: z.nullable(photoSchema),
});

/** A store as the listing shows it, with its starts within the hour. */
export const storeCardSchema = z.extend(storeFaceSchema, {
  lat: z.number(),
  lng: z.number(),
  /** Metres from the position asked with, else null. */
  distance_m: z.nullable(z.number()),
  /** With a position: the earliest the diner can be there on foot. */
  arrival: z.nullable(z.string()),
  bookable_now: z.boolean(),
  next_slots: z.array(slotSchema),
  free_tables: z.int(),
});

/** A store that matches but cannot seat the party now, with its next free start. */
export const beyondCardSchema = z.extend(storeFaceSchema, { next_slot: slotSchema });

/** A group after "now": its first stores by next start (20, or 100 for the group asked for with `more`) and how many there are. */
export const beyondGroupSchema = z.object({ items: z.array(beyondCardSchema), total: z.int() });

/**
 * `GET /api/stores`: one page of the stores bookable now; on the last page (or an empty one), the
 * stores that match but cannot seat the party now, by next start: later in today's business day
 * (until 05:00) and on another bookable day. Null on the other pages and while the server answers
 * from the database alone.
 */
export const storeListSchema = z.object({
  items: z.array(storeCardSchema),
  page: z.int(),
  per_page: z.int(),
  total: z.int(),
  later_today: z.nullable(beyondGroupSchema),
  another_day: z.nullable(beyondGroupSchema),
});

/** `GET /api/stores/{id}`: a store's page. */
export const storeSchema = z.object({
  id: z.int(),
  name: z.string(),
  name_kana: z.string(),
  genre: z.enum(GENRES),
  genre_label: z.string(),
  area: areaRef,
  address: z.string(),
  station: z.string(),
  walk_minutes: z.int(),
  lat: z.number(),
  lng: z.number(),
  phone: z.string(),
  budget: budgetSchema,
  description: z.string(),
  photos: z.array(photoSchema),
  stay_minutes: z.int(),
  turn_times: z.array(z.object({ party_size: z.int(), minutes: z.int() })),
  cancellation_policy: z.string(),
  tags: z.array(z.string()),
  hours: z.array(z.object({ weekday: z.int(), opens_min: z.int(), closes_min: z.int() })),
  /** One-off days: closed (臨時休業) or these openings instead of the week's. */
  closures: z.array(z.object({ date: z.string(), closed: z.boolean(), hours: z.array(z.object({ opens_min: z.int(), closes_min: z.int() })) })),
  max_party: z.int(),
});

/** `GET /api/favourites`. */
export const favouriteListSchema = z.object({ items: z.array(z.extend(storeCardSchema, { added_at: z.string() })) });

/** `GET /api/history`: viewed stores, newest first. */
export const historyListSchema = z.object({ items: z.array(z.extend(storeCardSchema, { viewed_at: z.string() })) });

/** A table alert (空席通知). */
export const watchJsonSchema = z.object({
  id: z.int(),
  store_id: z.nullable(z.int()),
  area_id: z.nullable(z.int()),
  genre: z.nullable(z.enum(GENRES)),
  keyword: z.nullable(z.string()),
  party_size: z.int(),
  from: z.string(),
  until: z.string(),
  /** A guest's address is mailed only once confirmed; an account's at once. */
  confirmed: z.boolean(),
});

/** `POST /api/watches`: the alert, and for a guest the device token that lists and cancels it. */
export const watchCreatedSchema = z.extend(watchJsonSchema, { device_token: z.optional(z.string()) });

/** `GET /api/watches`. */
export const watchListSchema = z.object({ items: z.array(watchJsonSchema) });
