/**
 * Discovery: the "bookable now" listing, search, areas and one store's details (DESIGN §3, §6).
 *
 * The availability index (in memory, docs/availability-index.md) holds every store's tables,
 * availability and card facts: it filters by area, genre and party, decides who can seat the party
 * within the hour and orders nearest first; SQL matches keywords (the bigram index). When the index
 * cannot be trusted (the LISTEN connection is down), SQL narrows and orders the candidates (GiST
 * index on ll_to_earth) and the pure `bookableNow` rule decides on their bookings, as the index would.
 */
import { and, arrayContains, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './db/types';
import { areas, storeHours, stores, storeTables, type StorePhoto } from './db/schema';
import { searchQueryTerms } from './db/searchTerms';
import { availabilityView, bookableDates, type AvailabilityView, bookableNow, loadStoreStates, NOW_WINDOW_MIN, type Slot } from './availability';
import { MINUTE_MS, toTokyoIso } from '../lib/datetime';
import type { T } from '../i18n';
import type { SlotJson } from '../lib/contract/responses';
import { safeString } from './http/api';
import { idSchema } from '../lib/contract/fields';
import { GENRES, type Genre } from '../lib/contract/enums';
import { DEFAULT_PARTY, KEYWORD_MAX, LATITUDE_MAX, LONGITUDE_MAX, PAGE_MAX, PAGE_SIZE, PAGE_SIZE_MAX, PARTY_MAX, PARTY_MIN } from '../lib/contract/limits';


/** Form fields arrive as '' when left empty: that means "not given". */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalNumber = (schema: z.core.$ZodType<number, number>) => z.preprocess(blank, z.coerce.number().pipe(schema).optional());

/** `party` in a query: 1–20, blank or absent meaning the default. */
export const partyField = z.preprocess(blank, z.coerce.number().pipe(z.number().int().min(PARTY_MIN).max(PARTY_MAX)).default(DEFAULT_PARTY));

/** The listing's query, shared by `/api/stores` and the listing pages. */
export const listQuerySchema = z
  .object({
    name: z.preprocess(blank, safeString().trim().max(KEYWORD_MAX).optional()),
    area: optionalNumber(idSchema),
    genre: z.preprocess(blank, z.enum(GENRES).optional()),
    party: partyField,
    lat: optionalNumber(z.number().min(-LATITUDE_MAX).max(LATITUDE_MAX)),
    lng: optionalNumber(z.number().min(-LONGITUDE_MAX).max(LONGITUDE_MAX)),
    page: z.preprocess(blank, z.coerce.number().pipe(z.number().int().min(1).max(PAGE_MAX)).default(1)),
    per_page: z.preprocess(blank, z.coerce.number().pipe(z.number().int().min(1).max(PAGE_SIZE_MAX)).default(PAGE_SIZE)),
  })
  .superRefine((q, ctx) => {
    if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [q.lat === undefined ? 'lat' : 'lng'], message: 'validation.required' });
    }
  });

export type ListQuery = z.infer<typeof listQuerySchema>;

export const partyQuerySchema = z.object({ party: partyField });

/** `date` (YYYY-MM-DD, a business day from today to 13 days ahead; default today) and `party`. */
export const availabilityQuerySchema = (now: Date) => {
  const dates = bookableDates(now);
  return z.object({
    date: z.preprocess(
      blank,
      safeString()
        .refine((d) => dates.includes(d), { message: 'discovery.validation.date' })
        .default(dates[0]!),
    ),
    party: partyField,
  });
};

export interface AreaSummary {
  id: number;
  slug: string;
  name: string;
  storeCount: number;
}

export interface StoreCard {
  id: number;
  name: string;
  nameKana: string;
  genre: Genre;
  areaId: number;
  areaName: string;
  station: string;
  walkMinutes: number;
  budgetMin: number;
  budgetMax: number;
  photo: StorePhoto | null;
  lat: number;
  lng: number;
  /** Metres from the given position, when one was given. */
  distanceM: number | null;
  /** Starts within the hour with a free fitting table (empty when not bookable now). */
  nextSlots: Slot[];
  /** Free fitting tables at the first of them. */
  freeTables: number;
}

export interface StorePage {
  items: StoreCard[];
  page: number;
  perPage: number;
  /** Stores bookable now that match, over all pages. */
  total: number;
}

/** Areas change only with a deploy or on the store host: their names are kept for a minute. */
const AREAS_TTL_MS = 60_000;
const areaNames = new WeakMap<Db, { at: number; rows: Promise<Omit<AreaSummary, 'storeCount'>[]> }>();

function areaRows(db: Db): Promise<Omit<AreaSummary, 'storeCount'>[]> {
  const cached = areaNames.get(db);
  if (cached && Date.now() - cached.at < AREAS_TTL_MS) return cached.rows;
  const rows = db.select({ id: areas.id, slug: areas.slug, name: areas.name }).from(areas).orderBy(asc(areas.sort), asc(areas.id));
  areaNames.set(db, { at: Date.now(), rows });
  rows.catch(() => areaNames.delete(db));
  return rows;
}

/** Every area with its number of stores (counted by the availability index, which holds every store). */
export async function listAreas(db: Db): Promise<AreaSummary[]> {
  const view = await availabilityView(db, new Date());
  if (!view) {
    return db
      .select({ id: areas.id, slug: areas.slug, name: areas.name, storeCount: sql<number>`count(${stores.id})::int` })
      .from(areas)
      .leftJoin(stores, eq(stores.areaId, areas.id))
      .groupBy(areas.id)
      .orderBy(asc(areas.sort), asc(areas.id));
  }
  const counts = view.storesPerArea();
  return (await areaRows(db)).map((a) => ({ ...a, storeCount: counts.get(a.id) ?? 0 }));
}

export async function findArea(db: Db, id: number): Promise<{ id: number; name: string; slug: string } | null> {
  const [row] = await db.select({ id: areas.id, name: areas.name, slug: areas.slug }).from(areas).where(eq(areas.id, id));
  return row ?? null;
}

const cardColumns = {
  id: stores.id,
  name: stores.name,
  nameKana: stores.nameKana,
  genre: stores.genre,
  areaId: stores.areaId,
  areaName: areas.name,
  station: stores.station,
  walkMinutes: stores.walkMinutes,
  budgetMin: stores.budgetMin,
  budgetMax: stores.budgetMax,
  photos: stores.photos,
  lat: stores.lat,
  lng: stores.lng,
  stayMinutes: stores.stayMinutes,
};

type Position = { lat: number; lng: number };

const distanceFrom = (position: Position | null) =>
  position
    ? sql<number>`earth_distance(ll_to_earth(${stores.lat}, ${stores.lng}), ll_to_earth(${position.lat}::float8, ${position.lng}::float8))`
    : sql<null>`null::float8`;

/** Nearest first by KNN on the cube GiST index (stores_location_gist) when there is a position; ties and the rest by id. */
const orderFor = (position: Position | null) => [
  ...(position ? [sql`ll_to_earth(${stores.lat}, ${stores.lng}) <-> ll_to_earth(${position.lat}::float8, ${position.lng}::float8)`] : []),
  asc(stores.id),
];

/** A table that can seat the party exists: stores that never could are not even considered. */
const seatsParty = (party: number) =>
  sql`exists (select 1 from ${storeTables} where ${storeTables.storeId} = ${stores.id} and ${storeTables.minParty} <= ${party} and ${storeTables.maxParty} >= ${party})`;

type NowAnswer = { nextSlots: Slot[]; freeTables: number };
const NOT_NOW: NowAnswer = { nextSlots: [], freeTables: 0 };

interface NowAnswers {
  isBookable(id: number): boolean;
  answer(id: number): NowAnswer;
}

/** "Bookable now" from the bookings, when the index cannot answer (it answers as this does). */
async function answersFromBookings(db: Db, rows: readonly { id: number; stayMinutes: number }[], party: number, now: Date): Promise<NowAnswers> {
  // Bookings that could overlap any stay starting within the hour.
  const longestStay = rows.reduce((m, r) => Math.max(m, r.stayMinutes), 0);
  const to = new Date(now.getTime() + (NOW_WINDOW_MIN + longestStay + 15) * MINUTE_MS);
  const states = await loadStoreStates(db, rows.map((r) => r.id), new Date(now.getTime() - MINUTE_MS), to);
  const memo = new Map<number, NowAnswer>();
  const answer = (id: number) => {
    let a = memo.get(id);
    if (!a) {
      const state = states.get(id);
      memo.set(id, (a = state ? bookableNow(state, party, now) : NOT_NOW));
    }
    return a;
  };
  return { isBookable: (id) => answer(id).nextSlots.length > 0, answer };
}

const fromView = (view: AvailabilityView, party: number): NowAnswers => ({
  isBookable: (id) => view.isBookableNow(id, party),
  answer: (id) => view.bookableNow(id, party) ?? NOT_NOW,
});

type Facts = NonNullable<ReturnType<AvailabilityView['facts']>>;

/**
 * What the cards of these stores show, in their order: from the index (it holds every store's
 * card facts, re-read with the store) and from the database for any it lacks.
 */
async function cardsFor(db: Db, view: AvailabilityView | null, rows: readonly { id: number; distanceM: number | null }[], answers: NowAnswers): Promise<StoreCard[]> {
  const missing = rows.filter((r) => !view?.facts(r.id)).map((r) => r.id);
  const read = new Map<number, Facts>();
  if (missing.length) {
    const found = await db.select(cardColumns).from(stores).innerJoin(areas, eq(areas.id, stores.areaId)).where(inArray(stores.id, missing));
    for (const { photos, stayMinutes: _stay, id, ...facts } of found) read.set(id, { ...facts, photo: photos[0] ?? null });
  }
  return rows.flatMap((r) => {
    const facts = view?.facts(r.id) ?? read.get(r.id);
    if (!facts) return [];
    const now_ = answers.answer(r.id);
    return [{ id: r.id, ...facts, distanceM: r.distanceM === null ? null : Math.round(Number(r.distanceM)), nextSlots: now_.nextSlots, freeTables: now_.freeTables }];
  });
}

/**
 * Stores that can seat `party` within the hour, matching the filters; nearest first when a
 * position is given, else in a stable order.
 */
export async function searchStores(db: Db, query: ListQuery, now = new Date()): Promise<StorePage> {
  const terms = query.name ? searchQueryTerms(query.name) : [];
  const position = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : null;
  const start = (query.page - 1) * query.per_page;
  const view = await availabilityView(db, now);
  if (view) {
    // A keyword is matched in SQL (the bigram index); area, genre, party fit, bookable now and
    // nearest first are decided by the index in one pass over every store, with the exact total.
    let only: Set<number> | undefined;
    if (terms.length) {
      const ids = (await db.select({ id: stores.id }).from(stores).where(arrayContains(stores.searchTerms, terms))).map((r) => r.id);
      await view.load(ids);
      only = new Set(ids);
    }
    const found = view.search({ party: query.party, area: query.area, genre: query.genre, only, position, start, count: query.per_page });
    const items = await cardsFor(db, view, found.items, fromView(view, query.party));
    return { items, page: query.page, perPage: query.per_page, total: found.total };
  }
  // The index cannot be trusted: SQL narrows and orders the candidates, and the bookings decide.
  const conditions: SQL[] = [seatsParty(query.party)];
  if (query.area !== undefined) conditions.push(eq(stores.areaId, query.area));
  if (query.genre !== undefined) conditions.push(eq(stores.genre, query.genre));
  if (terms.length) conditions.push(arrayContains(stores.searchTerms, terms));
  const rows = await db
    .select({ id: stores.id, distanceM: distanceFrom(position), stayMinutes: stores.stayMinutes })
    .from(stores)
    .where(and(...conditions))
    .orderBy(...orderFor(position));
  const answers = await answersFromBookings(db, rows, query.party, now);
  const bookable = rows.filter((c) => answers.isBookable(c.id));
  const items = await cardsFor(db, null, bookable.slice(start, start + query.per_page), answers);
  return { items, page: query.page, perPage: query.per_page, total: bookable.length };
}

/** Cards for given stores in the given order, bookable or not (favourites, history). */
export async function storeCards(db: Db, ids: readonly number[], party: number, now = new Date()): Promise<StoreCard[]> {
  if (!ids.length) return [];
  const view = await availabilityView(db, now, ids);
  const rows = ids.map((id) => ({ id, distanceM: null }));
  if (view) return cardsFor(db, view, rows.filter((r) => view.has(r.id)), fromView(view, party));
  const stays = await db.select({ id: stores.id, stayMinutes: stores.stayMinutes }).from(stores).where(inArray(stores.id, [...ids]));
  const known = new Set(stays.map((s) => s.id));
  return cardsFor(db, null, rows.filter((r) => known.has(r.id)), await answersFromBookings(db, stays, party, now));
}

export interface StoreDetail {
  id: number;
  name: string;
  nameKana: string;
  genre: Genre;
  areaId: number;
  areaName: string;
  address: string;
  station: string;
  walkMinutes: number;
  lat: number;
  lng: number;
  phone: string;
  budgetMin: number;
  budgetMax: number;
  description: string;
  photos: StorePhoto[];
  stayMinutes: number;
  cancellationPolicy: string;
  tags: string[];
  /** Weekly hours, by weekday then opening. */
  hours: { weekday: number; opensMin: number; closesMin: number }[];
  /** Largest party one table can seat. */
  maxParty: number;
}

export async function getStore(db: Db, id: number): Promise<StoreDetail | null> {
  const [row] = await db
    .select({
      id: stores.id,
      name: stores.name,
      nameKana: stores.nameKana,
      genre: stores.genre,
      areaId: stores.areaId,
      areaName: areas.name,
      address: stores.address,
      station: stores.station,
      walkMinutes: stores.walkMinutes,
      lat: stores.lat,
      lng: stores.lng,
      phone: stores.phone,
      budgetMin: stores.budgetMin,
      budgetMax: stores.budgetMax,
      description: stores.description,
      photos: stores.photos,
      stayMinutes: stores.stayMinutes,
      cancellationPolicy: stores.cancellationPolicy,
      tags: stores.tags,
      // In the same statement: the store page is read on every view.
      hours: sql<StoreDetail['hours']>`(
        select coalesce(json_agg(json_build_object('weekday', h.weekday, 'opensMin', h.opens_min, 'closesMin', h.closes_min) order by h.weekday, h.opens_min), '[]')
        from ${storeHours} h where h.store_id = ${stores.id})`,
      maxParty: sql<number>`(select coalesce(max(t.max_party), 0)::int from ${storeTables} t where t.store_id = ${stores.id})`,
    })
    .from(stores)
    .innerJoin(areas, eq(areas.id, stores.areaId))
    .where(eq(stores.id, id));
  return row ? { ...row, maxParty: Number(row.maxParty) } : null;
}

export async function storeExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, id));
  return Boolean(row);
}

// ------------------------------------------------------------------ JSON shapes of the API

export const slotJson = (s: Slot): SlotJson => ({ start: toTokyoIso(s.start), end: toTokyoIso(s.end), free_tables: s.freeTables });

/** A store card as the API answers it; the genre's label in the diner's language. */
export function cardJson(c: StoreCard, t: T) {
  return {
    id: c.id,
    name: c.name,
    name_kana: c.nameKana,
    genre: c.genre,
    genre_label: t(`discovery.genre.${c.genre}`),
    area: { id: c.areaId, name: c.areaName },
    station: c.station,
    walk_minutes: c.walkMinutes,
    budget: { min: c.budgetMin, max: c.budgetMax },
    photo: c.photo,
    lat: c.lat,
    lng: c.lng,
    distance_m: c.distanceM,
    bookable_now: c.nextSlots.length > 0,
    next_slots: c.nextSlots.map(slotJson),
    free_tables: c.freeTables,
  };
}

export function storeJson(s: StoreDetail, t: T) {
  return {
    id: s.id,
    name: s.name,
    name_kana: s.nameKana,
    genre: s.genre,
    genre_label: t(`discovery.genre.${s.genre}`),
    area: { id: s.areaId, name: s.areaName },
    address: s.address,
    station: s.station,
    walk_minutes: s.walkMinutes,
    lat: s.lat,
    lng: s.lng,
    phone: s.phone,
    budget: { min: s.budgetMin, max: s.budgetMax },
    description: s.description,
    photos: s.photos,
    stay_minutes: s.stayMinutes,
    cancellation_policy: s.cancellationPolicy,
    tags: s.tags,
    hours: s.hours.map((h) => ({ weekday: h.weekday, opens_min: h.opensMin, closes_min: h.closesMin })),
    max_party: s.maxParty,
  };
}
