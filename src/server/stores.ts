/**
 * Discovery: the "bookable now" listing, search, areas and one store's details (DESIGN §3, §6).
 *
 * The availability index (in memory, docs/availability-index.md) holds every store's tables,
 * availability and card facts: in one pass over every store it filters by area, genre, budget,
 * tags, party and seat kind, decides who can seat the party within the hour and orders the page
 * (catalog.ts searchCatalog); keywords are matched in memory too (search.ts). With the diner's position,
 * cards offer the starts they can walk to in time (src/lib/distance). When the index cannot be
 * trusted (the LISTEN connection is down), SQL narrows the candidates, the pure `bookableNow` rule
 * decides on their bookings, and the same catalog pass filters and orders them.
 */
import type { QueueMode } from '../lib/contract/queue';
import { and, arrayContains, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './db/types';
import { areas, storeClosures, storeHours, stores, storeTables, type StorePhoto } from './db/schema';
import { hasSearchWords, matchKeyword } from './search';
import type { StoreFacts } from './availability/engine';
import { availabilityView, bookableDates, businessDate, type AvailabilityView, bookableNow, loadStoreStates, nextMarks, NOW_WINDOW_MIN, ofKind, slotsBetween, type Slot } from './availability';
import { addTokyoDays, MINUTE_MS, tokyoParts, toTokyoIso } from '../lib/datetime';
import type { T } from '../i18n';
import type { SlotJson } from '../lib/contract/responses';
import { lineText, safeString } from './http/api';
import { databaseAway, noteDatabaseFailure } from './db/health';
import { cachedStoreDetail } from './storeDetails';
import { idSchema } from '../lib/contract/fields';
import { BEYOND_GROUPS, FEE_OFFERS, FILTER_TAG_KEYS, FILTER_TAGS, GENRES, LIST_SORTS, TABLE_KINDS, type FilterTag, type Genre, type TableKind } from '../lib/contract/enums';
import { arrivalMs, ARRIVAL_LOOKAHEAD_MIN } from '../lib/distance';
import { buildCatalog, searchCatalog, tagKeyBits, tagKeysOf } from './availability/catalog';
import { BEYOND_GROUP_MORE, BEYOND_GROUP_SIZE, BUDGET_MAX, DEFAULT_PARTY, KEYWORD_MAX, LATITUDE_MAX, LONGITUDE_MAX, PAGE_MAX, PAGE_SIZE, PAGE_SIZE_MAX, PARTY_MAX, PARTY_MIN, STAY_MINUTES_MAX } from '../lib/contract/limits';
import { typedNumber } from '../lib/validation';
import { clock } from './clock';
import { largestParty, type TableSize } from '../lib/party';


/** Form fields arrive as '' when left empty: that means "not given". */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalNumber = (schema: z.core.$ZodType<number, number>) => z.preprocess(typedNumber, z.coerce.number().pipe(schema).optional());

/** `party` in a query: 1–20, blank or absent meaning the default. */
export const partyField = z.preprocess(typedNumber, z.coerce.number().pipe(z.number().int().min(PARTY_MIN).max(PARTY_MAX)).default(DEFAULT_PARTY));

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

const budgetField = optionalNumber(z.number().int().min(0).max(BUDGET_MAX));

/** A seat kind asked for (個室, 座敷, …): the listing's filter, carried to the store page and the booking form. */
export const seatField = z.preprocess(blank, z.enum(TABLE_KINDS).optional());

/** The listing's query, shared by `/api/stores` and the listing pages. */
export const listQuerySchema = z
  .object({
    name: z.preprocess(blank, lineText().trim().max(KEYWORD_MAX).optional()),
    area: optionalNumber(idSchema),
    genre: z.preprocess(blank, z.enum(GENRES).optional()),
    party: partyField,
    lat: optionalNumber(z.number().min(-LATITUDE_MAX).max(LATITUDE_MAX)),
    lng: optionalNumber(z.number().min(-LONGITUDE_MAX).max(LONGITUDE_MAX)),
    /** Absent: nearest first with a position, else a stable order (catalog.ts searchCatalog). */
    sort: z.preprocess(blank, z.enum(LIST_SORTS).optional()),
    /** Yen per person; a store matches when its budget range overlaps [budget_min, budget_max]. */
    budget_min: budgetField,
    budget_max: budgetField,
    /** A free table of this kind within the hour. */
    seat: seatField,
    /** Tags the store must all carry (FILTER_TAGS keys). */
    tag: z.preprocess(listOf, z.array(z.enum(FILTER_TAG_KEYS)).default([])),
    page: z.preprocess(typedNumber, z.coerce.number().pipe(z.number().int().min(1).max(PAGE_MAX)).default(1)),
    per_page: z.preprocess(typedNumber, z.coerce.number().pipe(z.number().int().min(1).max(PAGE_SIZE_MAX)).default(PAGE_SIZE)),
    /** The group after "now" to show more of (its "see more" link): up to BEYOND_GROUP_MORE stores instead of BEYOND_GROUP_SIZE. */
    more: z.preprocess(blank, z.enum(BEYOND_GROUPS).optional()),
  })
  .superRefine((q, ctx) => {
    if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [q.lat === undefined ? 'lat' : 'lng'], message: 'validation.required' });
    }
    if (q.budget_min !== undefined && q.budget_max !== undefined && q.budget_min > q.budget_max) {
      ctx.addIssue({ code: 'custom', path: ['budget_max'], message: 'discovery.validation.budgetRange' });
    }
  });

export type ListQuery = z.infer<typeof listQuerySchema>;

export const partyQuerySchema = z.object({ party: partyField });

/**
 * `date` (YYYY-MM-DD, a business day from today to 13 days ahead; default today), `party`, optionally
 * `seat` (starts at tables of that kind), and `offer` (`change`: the fees worded for moving a booking).
 */
function availabilitySchemaFor(dates: string[]) {
  return z.object({
    date: z.preprocess(
      blank,
      safeString()
        .refine((d) => dates.includes(d), { message: 'discovery.validation.date' })
        .default(dates[0]!),
    ),
    party: partyField,
    seat: seatField,
    offer: z.preprocess(blank, z.enum(FEE_OFFERS).default('book')),
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

export interface AreaSummary {
  id: number;
  slug: string;
  name: string;
  storeCount: number;
}

/** A listing card: what the index keeps of the store (src/server/availability/engine.ts), and now. */
export interface StoreCard extends Omit<StoreFacts, 'tags'> {
  id: number;
  /** Metres from the given position, when one was given. */
  distanceM: number | null;
  /** Starts within the hour with a free fitting table (empty when not bookable now). */
  nextSlots: Slot[];
  /** Free fitting tables at the first of them. */
  freeTables: number;
  /**
   * With a position: the earliest the diner can be there on foot (src/lib/distance); the starts
   * above are then those they can make, or the first one after the hour.
   */
  arrival: Date | null;
}

export interface StorePage {
  items: StoreCard[];
  page: number;
  perPage: number;
  /** Stores bookable now that match, over all pages. */
  total: number;
  /**
   * After the last page of "now": the stores that match but cannot seat the party now, by their
   * next free start, later today or on another day. Null on the other pages, and when the index
   * cannot answer (the database is then asked only about now).
   */
  beyond: Beyond | null;
}

/** A store of a group after "now": its card facts and its next free start. */
export interface BeyondCard extends Omit<StoreFacts, 'tags'> {
  id: number;
  next: Slot;
}

export interface BeyondGroupResult {
  items: BeyondCard[];
  /** Every store of the group, beyond the ones shown. */
  total: number;
}

export interface Beyond {
  later: BeyondGroupResult;
  another: BeyondGroupResult;
}

/** Areas change only with a deploy or on the store host: their names are kept for a minute. */
const AREAS_TTL_MS = 60_000;
const areaNames = new WeakMap<Db, { at: number; rows: Promise<Omit<AreaSummary, 'storeCount'>[]> }>();

/** The last names read, kept for when the database is away (the listing is then served from memory). */
const lastAreaNames = new WeakMap<Db, Omit<AreaSummary, 'storeCount'>[]>();

function areaRows(db: Db): Promise<Omit<AreaSummary, 'storeCount'>[]> {
  const cached = areaNames.get(db);
  if (cached && Date.now() - cached.at < AREAS_TTL_MS) return cached.rows;
  const rows = db
    .select({ id: areas.id, slug: areas.slug, name: areas.name })
    .from(areas)
    .orderBy(asc(areas.sort), asc(areas.id))
    .then(
      (read) => (lastAreaNames.set(db, read), read),
      (error: unknown) => {
        const kept = lastAreaNames.get(db);
        if (kept && noteDatabaseFailure(error)) return kept;
        throw error;
      },
    );
  areaNames.set(db, { at: Date.now(), rows });
  rows.then(
    () => databaseAway() && areaNames.delete(db),
    () => areaNames.delete(db),
  );
  return rows;
}

/** The filter tags some store carries (all of them when the index cannot say). */
export async function offeredTags(db: Db, now = clock.now()): Promise<FilterTag[]> {
  const view = await availabilityView(db, now);
  return view ? tagKeysOf(view.tagsInUse()) : [...FILTER_TAG_KEYS];
}

/** Every area with its number of stores (counted by the availability index, which holds every store). */
export async function listAreas(db: Db): Promise<AreaSummary[]> {
  const view = await availabilityView(db, clock.now());
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
  // The names the area list keeps (the page shows that list too); an area made since is read.
  const kept = (await areaRows(db)).find((a) => a.id === id);
  if (kept) return { id: kept.id, name: kept.name, slug: kept.slug };
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
  tags: stores.tags,
  stayMinutes: stores.stayMinutes,
};

type Position = { lat: number; lng: number };

/** A table diners may book of the kind (any, without one) that can seat the party exists: stores that never could are not even considered. */
const seatsParty = (party: number, kind: TableKind | undefined) =>
  sql`exists (select 1 from ${storeTables} where ${storeTables.storeId} = ${stores.id} and ${storeTables.online} and ${storeTables.minParty} <= ${party} and ${storeTables.maxParty} >= ${party}${kind ? sql` and ${storeTables.kind} = ${kind}` : sql``})`;

type NowAnswer = { nextSlots: Slot[]; freeTables: number };
const NOT_NOW: NowAnswer = { nextSlots: [], freeTables: 0 };

/** Who can seat the party (at a table of the kind) now, and the first free start from a given instant. */
interface NowAnswers {
  answer(id: number): NowAnswer;
  firstFrom(id: number, fromMs: number, toMs: number): Slot | null;
}

/** "Bookable now" from the bookings, when the index cannot answer (it answers as this does). */
async function answersFromBookings(db: Db, rows: readonly { id: number }[], party: number, kind: TableKind | undefined, now: Date, lookahead: boolean): Promise<NowAnswers> {
  // Bookings that could overlap any stay starting within the hour (or the arrival lookahead), whatever the party's turn time.
  const ahead = NOW_WINDOW_MIN + (lookahead ? ARRIVAL_LOOKAHEAD_MIN : 0) + STAY_MINUTES_MAX + 15;
  const states = await loadStoreStates(db, rows.map((r) => r.id), new Date(now.getTime() - MINUTE_MS), new Date(now.getTime() + ahead * MINUTE_MS));
  const stateOf = (id: number) => {
    const state = states.get(id);
    return state && ofKind(state, kind);
  };
  const memo = new Map<number, NowAnswer>();
  return {
    answer(id) {
      let a = memo.get(id);
      if (!a) {
        const state = stateOf(id);
        memo.set(id, (a = state ? bookableNow(state, party, now) : NOT_NOW));
      }
      return a;
    },
    firstFrom(id, fromMs, toMs) {
      const state = stateOf(id);
      return state ? (slotsBetween(state, party, new Date(fromMs), new Date(toMs), now).find((s) => s.freeTables > 0) ?? null) : null;
    },
  };
}

const fromView = (view: AvailabilityView, party: number, kind: TableKind | undefined): NowAnswers => ({
  answer: (id) => view.bookableNow(id, party, kind) ?? NOT_NOW,
  firstFrom: (id, fromMs, toMs) => view.firstSlotFrom(id, party, fromMs, toMs, kind) ?? null,
});

/**
 * What a card offers a diner walking from `metres` away (src/lib/distance): the starts within the
 * hour they can reach in time, else the first free start they can make within the lookahead, else
 * nothing. Unreachable starts are never offered first.
 */
export function reachable(now: Date, metres: number, answer: NowAnswer, later: (fromMs: number, toMs: number) => Slot | null): NowAnswer & { arrival: Date } {
  const arrival = arrivalMs(now, metres);
  const nextSlots = answer.nextSlots.filter((s) => s.start.getTime() >= arrival);
  if (!nextSlots.length) {
    const slot = later(arrival, arrival + ARRIVAL_LOOKAHEAD_MIN * MINUTE_MS);
    if (slot) nextSlots.push(slot);
  }
  return { nextSlots, freeTables: nextSlots[0]?.freeTables ?? 0, arrival: new Date(arrival) };
}

type Facts = NonNullable<ReturnType<AvailabilityView['facts']>>;

/**
 * What the cards of these stores show, in their order: from the index (it holds every store's
 * card facts, re-read with the store) and from the database for any it lacks. With a distance,
 * the starts are those the diner can walk to in time.
 */
async function cardsFor(db: Db, view: AvailabilityView | null, rows: readonly { id: number; distanceM: number | null }[], answers: NowAnswers, now: Date): Promise<StoreCard[]> {
  const missing = rows.filter((r) => !view?.facts(r.id)).map((r) => r.id);
  const read = new Map<number, Facts>();
  if (missing.length) {
    const found = await db.select(cardColumns).from(stores).innerJoin(areas, eq(areas.id, stores.areaId)).where(inArray(stores.id, missing));
    for (const { photos, stayMinutes: _stay, id, ...facts } of found) read.set(id, { ...facts, photo: photos[0] ?? null });
  }
  return rows.flatMap((r) => {
    const facts = view?.facts(r.id) ?? read.get(r.id);
    if (!facts) return [];
    const { tags: _tags, ...shown } = facts;
    const now_ = r.distanceM === null ? { ...answers.answer(r.id), arrival: null } : reachable(now, r.distanceM, answers.answer(r.id), (from, to) => answers.firstFrom(r.id, from, to));
    return [{ id: r.id, ...shown, distanceM: r.distanceM === null ? null : Math.round(Number(r.distanceM)), ...now_ }];
  });
}

/** The catalog query of a listing query (everything but the keyword and the party). */
const catalogQuery = (query: ListQuery, position: Position | null, start: number) => ({
  area: query.area,
  genre: query.genre,
  position,
  budgetMin: query.budget_min,
  budgetMax: query.budget_max,
  tags: tagKeyBits(query.tag),
  sort: query.sort,
  start,
  count: query.per_page,
});

/**
 * Stores that can seat `party` within the hour (at a table of the kind asked for), matching the
 * filters, in the asked order (catalog.ts searchCatalog).
 */
export async function searchStores(db: Db, query: ListQuery, now = clock.now()): Promise<StorePage> {
  const keyword = hasSearchWords(query.name) ? query.name : undefined;
  const position = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : null;
  const start = (query.page - 1) * query.per_page;
  const kind = query.seat;
  const view = await availabilityView(db, now);
  if (view) {
    // A keyword is matched in memory against every store the index holds (src/server/search.ts);
    // every other filter, bookable now and the order are decided by the index in one pass over
    // every store, with the exact total.
    const only = keyword ? new Set(matchKeyword(keyword, db, view.ids(), (id) => view.facts(id))) : undefined;
    const found = view.search({ ...catalogQuery(query, position, start), party: query.party, kind, only });
    const items = await cardsFor(db, view, found.items, fromView(view, query.party, kind), now);
    // The groups follow the last page of "now" (or an empty one): one more pass over the index.
    const lastPage = start + query.per_page >= found.total;
    const beyond = lastPage ? beyondGroups(view, query, position, only) : null;
    return { items, page: query.page, perPage: query.per_page, total: found.total, beyond };
  }
  // The index cannot be trusted: SQL narrows the candidates, the bookings decide who is bookable,
  // and the same catalog pass as the index's filters and orders them.
  const conditions: SQL[] = [seatsParty(query.party, kind)];
  if (query.area !== undefined) conditions.push(eq(stores.areaId, query.area));
  if (query.genre !== undefined) conditions.push(eq(stores.genre, query.genre));
  if (query.tag.length) conditions.push(arrayContains(stores.tags, query.tag.map((k) => FILTER_TAGS[k])));
  const read = await db
    .select({ ...placedColumns, ...searchedColumns, id: stores.id })
    .from(stores)
    .innerJoin(areas, eq(areas.id, stores.areaId))
    .where(and(...conditions));
  // The keyword is matched by the same search as the index's.
  const byId = new Map(read.map((r) => [r.id, r]));
  const matching = keyword ? new Set(matchKeyword(keyword, read, [...byId.keys()], (id) => byId.get(id))) : null;
  const rows = matching ? read.filter((r) => matching.has(r.id)) : read;
  const answers = await answersFromBookings(db, rows, query.party, kind, now, position !== null);
  const marks = nextMarks(now).map((m) => m.getTime());
  const catalog = buildCatalog(new Map(rows.map((r) => [r.id, { facts: r }])));
  const masks = Array.from(catalog.ids, (id) => answers.answer(id).nextSlots.reduce((m, s) => m | (1 << marks.indexOf(s.start.getTime())), 0));
  const found = searchCatalog(catalog, { marks, mask: (i) => masks[i]!, now }, catalogQuery(query, position, start));
  const items = await cardsFor(db, null, found.items, answers, now);
  return { items, page: query.page, perPage: query.per_page, total: found.total, beyond: null };
}

/** The groups after "now" from the index: BEYOND_GROUP_SIZE stores each, more of the one asked for. */
function beyondGroups(view: AvailabilityView, query: ListQuery, position: Position | null, only: ReadonlySet<number> | undefined): Beyond {
  const caps = { later: BEYOND_GROUP_SIZE, another: BEYOND_GROUP_SIZE, ...(query.more ? { [query.more]: BEYOND_GROUP_MORE } : {}) };
  const { start: _start, count: _count, ...filters } = catalogQuery(query, position, 0);
  const found = view.beyond({ ...filters, party: query.party, kind: query.seat, only }, caps);
  const cards = (g: { items: { id: number; startMs: number }[]; total: number }): BeyondGroupResult => ({
    total: g.total,
    items: g.items.flatMap(({ id, startMs }) => {
      const facts = view.facts(id);
      const next = view.firstSlotFrom(id, query.party, startMs, startMs + 1, query.seat);
      if (!facts || !next) return [];
      const { tags: _tags, ...shown } = facts;
      return [{ id, ...shown, next }];
    }),
  });
  return { later: cards(found.later), another: cards(found.another) };
}

/** What the catalog filters and orders on, as the fallback reads it. */
const placedColumns = {
  areaId: stores.areaId,
  genre: stores.genre,
  lat: stores.lat,
  lng: stores.lng,
  budgetMin: stores.budgetMin,
  budgetMax: stores.budgetMax,
  walkMinutes: stores.walkMinutes,
  tags: stores.tags,
};

/** What the keyword is matched against, as the fallback reads it. */
const searchedColumns = { name: stores.name, nameKana: stores.nameKana, areaName: areas.name, station: stores.station };

/** Cards for given stores in the given order, bookable or not (favourites, history, a store's page; a seat kind when one was asked for). */
export async function storeCards(db: Db, ids: readonly number[], party: number, now = clock.now(), kind?: TableKind): Promise<StoreCard[]> {
  if (!ids.length) return [];
  const view = await availabilityView(db, now, ids);
  const rows = ids.map((id) => ({ id, distanceM: null }));
  if (view) return cardsFor(db, view, rows.filter((r) => view.has(r.id)), fromView(view, party, kind), now);
  const found = await db.select({ id: stores.id }).from(stores).where(inArray(stores.id, [...ids]));
  const known = new Set(found.map((s) => s.id));
  return cardsFor(db, null, rows.filter((r) => known.has(r.id)), await answersFromBookings(db, found, party, kind, now, false), now);
}

/** Read-only: one object is shared by every view while it is kept (storeDetails.ts). */
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
  photos: readonly StorePhoto[];
  stayMinutes: number;
  /** Turn times of some party sizes, `[party, minutes]`; others stay `stayMinutes`. */
  turnTimes: readonly [number, number][];
  cancellationPolicy: string;
  tags: readonly string[];
  /** Weekly hours, by weekday then opening. */
  hours: readonly { weekday: number; opensMin: number; closesMin: number }[];
  /** One-off days from yesterday (Tokyo) on, earliest first: closed (臨時休業) when `hours` is empty, else these openings instead of the week's. */
  closures: readonly { date: string; hours: [number, number][] }[];
  /** Largest party one table diners may book can seat. */
  maxParty: number;
  /** When the store takes a queue (順番待ち): only while nothing is free within the hour, or always. */
  queueMode: QueueMode;
}

/** A store's details, from memory while no change to the store has been announced (storeDetails.ts). */
export function getStore(db: Db, id: number): Promise<StoreDetail | null> {
  return cachedStoreDetail(db, id, readStore);
}

async function readStore(db: Db, id: number): Promise<StoreDetail | null> {
  // Yesterday by the server's clock (src/server/clock.ts), not the database's now(), like every other date of the listing.
  const since = addTokyoDays(tokyoParts(clock.now()).date, -1);
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
      turnTimes: stores.turnTimes,
      cancellationPolicy: stores.cancellationPolicy,
      tags: stores.tags,
      queueMode: stores.queueMode,
      // In the same statement: one round trip per (re)read.
      hours: sql<StoreDetail['hours']>`(
        select coalesce(json_agg(json_build_object('weekday', h.weekday, 'opensMin', h.opens_min, 'closesMin', h.closes_min) order by h.weekday, h.opens_min), '[]')
        from ${storeHours} h where h.store_id = ${stores.id})`,
      closures: sql<StoreDetail['closures']>`(
        select coalesce(json_agg(json_build_object('date', to_char(c.date, 'YYYY-MM-DD'), 'hours', c.hours) order by c.date), '[]')
        from ${storeClosures} c where c.store_id = ${stores.id} and c.date >= ${since})`,
      tableSizes: sql<TableSize[]>`(select coalesce(json_agg(json_build_object('maxParty', t.max_party, 'online', t.online)), '[]') from ${storeTables} t where t.store_id = ${stores.id})`,
    })
    .from(stores)
    .innerJoin(areas, eq(areas.id, stores.areaId))
    .where(eq(stores.id, id));
  // Shared by every view while it is kept: frozen, so that no page can change another's.
  if (!row) return null;
  const { tableSizes, ...detail } = row;
  return Object.freeze({ ...detail, maxParty: largestParty(tableSizes), hours: Object.freeze(detail.hours), closures: Object.freeze(detail.closures), photos: Object.freeze(detail.photos), tags: Object.freeze(detail.tags) });
}

export async function storeExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, id));
  return Boolean(row);
}

// ------------------------------------------------------------------ JSON shapes of the API

export const slotJson = (s: Slot): SlotJson => ({ start: toTokyoIso(s.start), end: toTokyoIso(s.end), free_tables: s.freeTables });

/** What every store item of the API says of the store itself; the genre's label in the diner's language. */
function storeFactsJson(c: StoreCard | BeyondCard, t: T) {
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
  };
}

/** A store card as the API answers it. */
export function cardJson(c: StoreCard, t: T) {
  return {
    ...storeFactsJson(c, t),
    lat: c.lat,
    lng: c.lng,
    distance_m: c.distanceM,
    arrival: c.arrival ? toTokyoIso(c.arrival) : null,
    bookable_now: c.nextSlots.length > 0,
    next_slots: c.nextSlots.map(slotJson),
    free_tables: c.freeTables,
  };
}

/** A store of a group after "now" as the API answers it. */
export function beyondCardJson(c: BeyondCard, t: T) {
  return {
    ...storeFactsJson(c, t),
    next_slot: slotJson(c.next),
  };
}

/** A listing page as `GET /api/stores` answers it. */
export function storePageJson(page: StorePage, t: T) {
  const group = (g: BeyondGroupResult) => ({ items: g.items.map((c) => beyondCardJson(c, t)), total: g.total });
  return {
    items: page.items.map((c) => cardJson(c, t)),
    page: page.page,
    per_page: page.perPage,
    total: page.total,
    later_today: page.beyond && group(page.beyond.later),
    another_day: page.beyond && group(page.beyond.another),
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
    turn_times: s.turnTimes.map(([party, minutes]) => ({ party_size: party, minutes })),
    cancellation_policy: s.cancellationPolicy,
    tags: s.tags,
    hours: s.hours.map((h) => ({ weekday: h.weekday, opens_min: h.opensMin, closes_min: h.closesMin })),
    closures: s.closures.map((c) => ({ date: c.date, closed: c.hours.length === 0, hours: c.hours.map(([opens, closes]) => ({ opens_min: opens, closes_min: closes })) })),
    max_party: s.maxParty,
  };
}
