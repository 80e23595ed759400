/**
 * Discovery: the "bookable now" listing and keyword search, and cards for given stores (DESIGN §3, §6).
 *
 * The availability index (in memory, docs/availability-index.md) holds every store's tables,
 * availability and card facts: in one pass over every store it filters by area, genre, budget,
 * tags, party and seat kind, decides who can seat the party within the hour and orders the page
 * (catalog.ts searchCatalog); keywords are matched in memory too (search.ts). With the diner's position,
 * cards offer the starts they can walk to in time (src/lib/distance). When the index cannot be
 * trusted (the LISTEN connection is down), SQL narrows the candidates, the pure `bookableNow` rule
 * decides on their bookings, and the same catalog pass filters and orders them.
 *
 * One module: the index path and the SQL path must give the same page; they sit side by side so
 * that a change to one is made against the other.
 */
import { and, arrayContains, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types';
import { areas, stores, storeTables } from '../db/schema';
import { hasSearchWords, matchKeyword } from '../search';
import type { StoreFacts } from '../availability/engine';
import {
  availabilityView,
  type AvailabilityView,
  bookableNow,
  loadStoreStates,
  nextMarks,
  NOW_WINDOW_MIN,
  ofKind,
  slotsBetween,
  type Slot,
} from '../availability';
import { MINUTE_MS } from '../../lib/datetime';
import { FILTER_TAGS, type TableKind } from '../../lib/contract/enums';
import { arrivalMs, ARRIVAL_LOOKAHEAD_MIN } from '../../lib/distance';
import { buildCatalog, searchCatalog, tagKeyBits } from '../availability/catalog';
import { BEYOND_GROUP_MORE, BEYOND_GROUP_SIZE, STAY_MINUTES_MAX } from '../../lib/contract/limits';
import { clock } from '../clock';
import type { ListQuery } from './query';
import { storeFactColumns } from './columns';

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
async function answersFromBookings(
  db: Db,
  rows: readonly { id: number }[],
  party: number,
  kind: TableKind | undefined,
  now: Date,
  lookahead: boolean,
): Promise<NowAnswers> {
  // Bookings that could overlap any stay starting within the hour (or the arrival lookahead), whatever the party's turn time.
  const ahead = NOW_WINDOW_MIN + (lookahead ? ARRIVAL_LOOKAHEAD_MIN : 0) + STAY_MINUTES_MAX + 15;
  const states = await loadStoreStates(
    db,
    rows.map((r) => r.id),
    new Date(now.getTime() - MINUTE_MS),
    new Date(now.getTime() + ahead * MINUTE_MS),
  );
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
async function cardsFor(
  db: Db,
  view: AvailabilityView | null,
  rows: readonly { id: number; distanceM: number | null }[],
  answers: NowAnswers,
  now: Date,
): Promise<StoreCard[]> {
  const missing = rows.filter((r) => !view?.facts(r.id)).map((r) => r.id);
  const read = new Map<number, Facts>();
  if (missing.length) {
    const found = await db.select(storeFactColumns).from(stores).innerJoin(areas, eq(areas.id, stores.areaId)).where(inArray(stores.id, missing));
    for (const { photos, stayMinutes: _stay, id, ...facts } of found) read.set(id, { ...facts, photo: photos[0] ?? null });
  }
  return rows.flatMap((r) => {
    const facts = view?.facts(r.id) ?? read.get(r.id);
    if (!facts) return [];
    const { tags: _tags, ...shown } = facts;
    const now_ =
      r.distanceM === null
        ? { ...answers.answer(r.id), arrival: null }
        : reachable(now, r.distanceM, answers.answer(r.id), (from, to) => answers.firstFrom(r.id, from, to));
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
  if (query.tag.length)
    conditions.push(
      arrayContains(
        stores.tags,
        query.tag.map((k) => FILTER_TAGS[k]),
      ),
    );
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
  if (view)
    return cardsFor(
      db,
      view,
      rows.filter((r) => view.has(r.id)),
      fromView(view, party, kind),
      now,
    );
  const found = await db
    .select({ id: stores.id })
    .from(stores)
    .where(inArray(stores.id, [...ids]));
  const known = new Set(found.map((s) => s.id));
  return cardsFor(
    db,
    null,
    rows.filter((r) => known.has(r.id)),
    await answersFromBookings(db, found, party, kind, now, false),
    now,
  );
}
