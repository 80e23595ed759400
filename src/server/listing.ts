/**
 * What a listing page (/home, /stores, /areas/{id}) needs from a request: the validated query,
 * the bookable stores and which of them the diner keeps as favourites. Bad input gives the
 * field errors and an empty result, never an exception.
 */
import type * as z from 'zod/mini';
import type { Db } from './db/types';
import { favouriteIds } from './favourites';
import { listQueryParams, listQuerySchema, partyQuerySchema, type ListQuery } from './stores/query';
import { offeredTags } from './stores/areas';
import { searchStores, type StorePage } from './stores/search';
import { DEFAULT_PARTY, PAGE_SIZE, PARTY_MAX, PARTY_MIN } from '../lib/contract/limits';
import { availabilityView } from './availability';
import type { FilterTag } from '../lib/contract/enums';
import { clock } from './clock';

export interface Listing {
  query: ListQuery;
  /** What the diner typed, for re-rendering the form as it was (`tag` is repeated: `tags`). */
  raw: Record<string, string>;
  rawTags: string[];
  /** The filter tags some store carries: the only ones offered. */
  tagsOffered: FilterTag[];
  result: StorePage;
  favourites: Set<number>;
  error: z.core.$ZodError | null;
  /** When nothing is bookable now: why, and the nearest change that finds something. */
  advice: EmptyAdvice | null;
}

/**
 * Why a search has no store bookable now: no table seats the party (`party`), the matching
 * stores are all busy or closed now (`notNow`: the groups after "now" show when), or no store
 * matches at all (`noMatch`).
 */
export interface EmptyAdvice {
  reason: 'party' | 'notNow' | 'noMatch';
  /** The largest party one table seats, over every store. */
  largestParty: number;
  /** The nearest other party size with stores bookable now for the same search, if one of the few tried has. */
  party: number | null;
}

/** Party sizes tried for the empty listing's advice: each is one more pass over the index. */
const PARTY_TRIES = 4;

async function emptyAdvice(db: Db, query: ListQuery, result: StorePage, now: Date): Promise<EmptyAdvice | null> {
  const view = await availabilityView(db, now);
  if (!view) return null;
  const largestParty = view.largestParty();
  const beyond = (result.beyond?.later.total ?? 0) + (result.beyond?.another.total ?? 0);
  const reason = query.party > largestParty ? 'party' : beyond > 0 ? 'notNow' : 'noMatch';
  // Smaller parties first (a group can split), then larger, never beyond what a table seats.
  const tries: number[] = [];
  for (let d = 1; tries.length < PARTY_TRIES && d < PARTY_MAX; d++) {
    for (const p of [query.party - d, query.party + d])
      if (p >= PARTY_MIN && p <= Math.min(largestParty, PARTY_MAX) && tries.length < PARTY_TRIES) tries.push(p);
  }
  let party: number | null = null;
  for (const p of tries.sort((a, b) => Math.abs(a - query.party) - Math.abs(b - query.party) || a - b)) {
    const found = await searchStores(db, { ...query, party: p, page: 1, per_page: 1, more: undefined }, now);
    if (found.total > 0) {
      party = p;
      break;
    }
  }
  return { reason, largestParty, party };
}

export async function loadListing(db: Db, url: URL, userId: number | null, fixed: Partial<ListQuery> = {}, now = clock.now()): Promise<Listing> {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) raw[k] ??= v;
  const rawTags = url.searchParams.getAll('tag');
  const parsed = listQuerySchema.safeParse({ ...listQueryParams(url), ...fixed });
  if (!parsed.success) {
    // Keep the party when it alone was fine, so the page still speaks of the diner's party.
    const party = partyQuerySchema.safeParse({ party: raw.party });
    const fallback = listQuerySchema.parse({ ...fixed, party: party.success ? party.data.party : DEFAULT_PARTY });
    const empty = { items: [], page: 1, perPage: PAGE_SIZE, total: 0, beyond: null };
    return { query: fallback, raw, rawTags, tagsOffered: await offeredTags(db, now), result: empty, favourites: new Set(), error: parsed.error, advice: null };
  }
  const [result, tagsOffered] = await Promise.all([searchStores(db, parsed.data, now), offeredTags(db, now)]);
  const [favourites, advice] = await Promise.all([
    favouriteIds(
      db,
      userId,
      result.items.map((c) => c.id),
    ),
    result.total === 0 ? emptyAdvice(db, parsed.data, result, now) : null,
  ]);
  return { query: parsed.data, raw, rawTags, tagsOffered, result, favourites, error: null, advice };
}

/** A listing URL keeping the search but not the position (positions stay in the browser). */
export function listingHref(path: string, query: ListQuery, page: number, omit: readonly string[] = []): string {
  const params = new URLSearchParams();
  if (query.name && !omit.includes('name')) params.set('name', query.name);
  if (query.area !== undefined && !omit.includes('area')) params.set('area', String(query.area));
  if (query.genre && !omit.includes('genre')) params.set('genre', query.genre);
  if (query.party !== DEFAULT_PARTY) params.set('party', String(query.party));
  if (query.sort) params.set('sort', query.sort);
  if (query.budget_min !== undefined) params.set('budget_min', String(query.budget_min));
  if (query.budget_max !== undefined) params.set('budget_max', String(query.budget_max));
  if (query.seat) params.set('seat', query.seat);
  for (const tag of query.tag) params.append('tag', tag);
  if (page > 1) params.set('page', String(page));
  if (query.more && !omit.includes('more')) params.set('more', query.more);
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}
