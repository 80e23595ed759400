/**
 * What a listing page (/home, /stores, /areas/{id}) needs from a request: the validated query,
 * the bookable stores and which of them the diner keeps as favourites. Bad input gives the
 * field errors and an empty result, never an exception.
 */
import type { z } from 'zod';
import type { Db } from './db/types';
import { favouriteIds } from './favourites';
import { listQueryParams, listQuerySchema, offeredTags, partyQuerySchema, searchStores, type ListQuery, type StorePage } from './stores';
import { DEFAULT_PARTY, PAGE_SIZE } from '../lib/contract/limits';
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
  error: z.ZodError | null;
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
    const empty = { items: [], page: 1, perPage: PAGE_SIZE, total: 0 };
    return { query: fallback, raw, rawTags, tagsOffered: await offeredTags(db, now), result: empty, favourites: new Set(), error: parsed.error };
  }
  const [result, tagsOffered] = await Promise.all([searchStores(db, parsed.data, now), offeredTags(db, now)]);
  const favourites = await favouriteIds(db, userId, result.items.map((c) => c.id));
  return { query: parsed.data, raw, rawTags, tagsOffered, result, favourites, error: null };
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
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}
