/**
 * Every store the index holds, in id order, as flat arrays: what the listing filters on (area,
 * genre, budget, tags) and orders by (id, distance from the diner, walk, first start, budget), so that a page of the bookable-now
 * listing with its exact total is one pass over typed arrays, whatever the number of stores; in id
 * order and filtered by area and genre alone, with the bookable-now counts kept, the pass stops at
 * the page's end (the listing's cost does not grow with the store count).
 * Distances are computed as PostgreSQL's earthdistance computes them (ll_to_earth, earth_distance),
 * so the order and the metres shown are the ones SQL gave.
 *
 * One module: the flat arrays and every pass over them (the page, the groups after it, the counts)
 * share one layout and its invariants (id order, tag bits, distances as SQL computes them); split,
 * a change to the layout would have to be made in several files at once.
 */
import { FILTER_TAG_KEYS, FILTER_TAGS, type FilterTag, type ListSort } from '../../lib/contract/enums';
import { arrivalMs } from '../../lib/distance';

/** earthdistance's earth(): the radius it assumes, in metres. */
export const EARTH_RADIUS_M = 6_378_168;
const RAD = Math.PI / 180;

export interface Catalog {
  /** Store ids, ascending; a store's slot is its position here. */
  ids: Int32Array;
  slotOf: Map<number, number>;
  /** Unit vector of each store's location (ll_to_earth divided by the radius). */
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  areaIds: Int32Array;
  genres: string[];
  budgetMin: Int32Array;
  budgetMax: Int32Array;
  walkMinutes: Int32Array;
  /** Bit k: the store carries the k-th of FILTER_TAG_KEYS. */
  tagBits: Int32Array;
  /** The bits some store carries: only those tags are offered as filters. */
  tagsInUse: number;
  /** Each area's slots, ascending: an area's listing passes over its own stores only. */
  areaSlots: Map<number, Int32Array>;
}

/** What the listing filters and orders on, of a store's card facts. */
export interface Placed {
  areaId: number;
  genre: string;
  lat: number;
  lng: number;
  budgetMin: number;
  budgetMax: number;
  walkMinutes: number;
  tags: readonly string[];
}

/** The FILTER_TAG_KEYS bits of a store's tags. */
export function tagBitsOf(tags: readonly string[]): number {
  return FILTER_TAG_KEYS.reduce((bits, key, k) => (tags.includes(FILTER_TAGS[key]) ? bits | (1 << k) : bits), 0);
}

/** The filter keys of FILTER_TAG_KEYS bits. */
export const tagKeysOf = (bits: number) => FILTER_TAG_KEYS.filter((_, k) => bits & (1 << k));

/** The FILTER_TAG_KEYS bits of filter keys from a query. */
export const tagKeyBits = (keys: readonly FilterTag[]) => keys.reduce((bits, key) => bits | (1 << FILTER_TAG_KEYS.indexOf(key)), 0);

export function buildCatalog(stores: ReadonlyMap<number, { facts?: Placed }>): Catalog {
  const ids = Int32Array.from([...stores.keys()].filter((id) => stores.get(id)!.facts)).sort();
  const n = ids.length;
  const ints = () => new Int32Array(n);
  const c: Catalog = {
    ids,
    slotOf: new Map(),
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    areaIds: ints(),
    genres: new Array<string>(n),
    budgetMin: ints(),
    budgetMax: ints(),
    walkMinutes: ints(),
    tagBits: ints(),
    tagsInUse: 0,
    areaSlots: new Map(),
  };
  const perArea = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const f = stores.get(ids[i]!)!.facts!;
    c.slotOf.set(ids[i]!, i);
    const lat = f.lat * RAD;
    const lng = f.lng * RAD;
    c.x[i] = Math.cos(lat) * Math.cos(lng);
    c.y[i] = Math.cos(lat) * Math.sin(lng);
    c.z[i] = Math.sin(lat);
    c.areaIds[i] = f.areaId;
    c.genres[i] = f.genre;
    c.budgetMin[i] = f.budgetMin;
    c.budgetMax[i] = f.budgetMax;
    c.walkMinutes[i] = f.walkMinutes;
    c.tagBits[i] = tagBitsOf(f.tags);
    c.tagsInUse |= c.tagBits[i]!;
    const slots = perArea.get(f.areaId);
    if (slots) slots.push(i);
    else perArea.set(f.areaId, [i]);
  }
  for (const [area, slots] of perArea) c.areaSlots.set(area, Int32Array.from(slots));
  return c;
}

const NO_SLOTS = new Int32Array(0);

/** The slots a query can match, ascending: its area's, or every one. */
function slotsOf(c: Catalog, area: number | undefined): { length: number; at: (k: number) => number } {
  if (area === undefined) return { length: c.ids.length, at: (k) => k };
  const slots = c.areaSlots.get(area) ?? NO_SLOTS;
  return { length: slots.length, at: (k) => slots[k]! };
}

/**
 * The keys a store's bookable-now count is kept under (`NowMasks.counts`): every store, its area,
 * its genre, both. A query filtering on nothing else has its total in one look-up.
 */
export function countKeys(area: number, genre: string): [string, string, string, string] {
  return ['', `a${area}`, `g${genre}`, `a${area}g${genre}`];
}

/** The count key of a query, when its total is one of the counts kept (only area and genre filter). */
export function countKeyOf(q: Omit<CatalogQuery, 'start' | 'count'>): string | undefined {
  if (q.budgetMin !== undefined || q.budgetMax !== undefined || (q.tags ?? 0) !== 0 || q.only) return undefined;
  return `${q.area === undefined ? '' : `a${q.area}`}${q.genre === undefined ? '' : `g${q.genre}`}`;
}

/** Bookable-now stores per count key (countKeys) of the masks given, for `NowMasks.counts`. */
export function countBookable(c: Catalog, mask: (slot: number) => number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < c.ids.length; i++) {
    if (mask(i) === 0) continue;
    for (const key of countKeys(c.areaIds[i]!, c.genres[i]!)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Metres along the surface for a chord of the unit sphere, as earth_distance gives them. */
export const surfaceMetres = (chord: number) => 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, chord / 2));

export interface CatalogQuery {
  area?: number;
  genre?: string;
  /** Only these stores (a keyword's matches, found in SQL). */
  only?: ReadonlySet<number>;
  position?: { lat: number; lng: number } | null;
  /** Yen per person: the store's budget range must overlap [budgetMin, budgetMax]. */
  budgetMin?: number;
  budgetMax?: number;
  /** tagBitsOf the tags a store must all carry. */
  tags?: number;
  sort?: ListSort;
  /** Matching stores to skip, then to return. */
  start: number;
  count: number;
}

export interface CatalogPage {
  items: { id: number; distanceM: number | null }[];
  /** Every matching store, over all pages. */
  total: number;
}

/**
 * The bookable-now answer per store the listing works from: bit k set when a fitting table is
 * free at the k-th of the next marks (epoch ms, ascending); 0 for a store not bookable now.
 */
export interface NowMasks {
  marks: readonly number[];
  mask: (slot: number) => number;
  now: Date;
  /**
   * Bookable-now stores per count key (countKeys), kept with the masks: with it, a query in id
   * order filtering on area and genre alone stops once its page is filled, instead of passing
   * over every store for the total.
   */
  counts?: ReadonlyMap<string, number>;
}

/** The first of the marks set in `mask` at or after `fromMs`; Infinity when none is. */
export function firstMarkFrom(marks: readonly number[], mask: number, fromMs: number): number {
  for (let k = 0; k < marks.length; k++) if (mask & (1 << k) && marks[k]! >= fromMs) return marks[k]!;
  return Infinity;
}

/** The query's filters (everything but bookable now) as a test of a store's slot. */
function matcher(c: Catalog, q: Omit<CatalogQuery, 'start' | 'count'>): (i: number) => boolean {
  const tags = q.tags ?? 0;
  return (i) =>
    (q.area === undefined || c.areaIds[i] === q.area) &&
    (q.genre === undefined || c.genres[i] === q.genre) &&
    (q.budgetMin === undefined || c.budgetMax[i]! >= q.budgetMin) &&
    (q.budgetMax === undefined || c.budgetMin[i]! <= q.budgetMax) &&
    (c.tagBits[i]! & tags) === tags &&
    (!q.only || q.only.has(c.ids[i]!));
}

/**
 * One page of the stores that match and are bookable now, in the asked order, with the exact
 * total. Orders (ties always by id):
 * - default: nearest first with a position, else by id;
 * - nearest: by distance, or without a position by the walk from the station;
 * - soonest: by the first start the diner can make (walking from the position, src/lib/distance),
 *   stores with none within the hour last, then by distance;
 * - budget: by the lower then the upper end of the budget, then by distance.
 */
export function searchCatalog(c: Catalog, now: NowMasks, q: CatalogQuery): CatalogPage {
  const slots = slotsOf(c, q.area);
  const n = slots.length;
  const filter = matcher(c, q);
  const matches = (i: number) => filter(i) && now.mask(i) !== 0;
  const wanted = q.start + q.count;
  let px = 0;
  let py = 0;
  let pz = 0;
  if (q.position) {
    const lat = q.position.lat * RAD;
    const lng = q.position.lng * RAD;
    px = Math.cos(lat) * Math.cos(lng);
    py = Math.cos(lat) * Math.sin(lng);
    pz = Math.sin(lat);
  }
  const chord2 = (i: number) => {
    const dx = c.x[i]! - px;
    const dy = c.y[i]! - py;
    const dz = c.z[i]! - pz;
    return dx * dx + dy * dy + dz * dz;
  };
  // Sort keys (a, b, then d: the squared chord, 0 without a position), then id.
  const keysOf = (i: number, d: number): [number, number] => {
    switch (q.sort) {
      case 'nearest':
        return q.position ? [0, 0] : [c.walkMinutes[i]!, 0];
      case 'budget':
        return [c.budgetMin[i]!, c.budgetMax[i]!];
      case 'soonest': {
        const from = q.position ? arrivalMs(now.now, surfaceMetres(Math.sqrt(d))) : 0;
        return [firstMarkFrom(now.marks, now.mask(i), from), 0];
      }
      default:
        return [0, 0];
    }
  };
  type Entry = { a: number; b: number; d: number; i: number };
  const above = (x: Entry, y: Entry) => (x.a !== y.a ? x.a > y.a : x.b !== y.b ? x.b > y.b : x.d !== y.d ? x.d > y.d : c.ids[x.i]! > c.ids[y.i]!);
  // The `wanted` first so far, as a max-heap: the last of them is on top.
  const heap: Entry[] = [];
  let total = 0;
  const ordered = Boolean(q.position) || q.sort !== undefined;
  const countKey = countKeyOf(q);
  const known = ordered || !now.counts || countKey === undefined ? undefined : (now.counts.get(countKey) ?? 0);
  for (let k = 0; k < n; k++) {
    const i = slots.at(k);
    if (!matches(i)) continue;
    total++;
    if (total > wanted && !ordered) {
      // In id order the page is the first `wanted` matches: with the total known, nothing is left to count.
      if (known !== undefined) break;
      continue;
    }
    if (wanted === 0) continue;
    const d = q.position ? chord2(i) : 0;
    const [a, b] = keysOf(i, d);
    const e = { a, b, d, i };
    if (heap.length < wanted) {
      heap.push(e);
      for (let k = heap.length - 1; k > 0; ) {
        const parent = (k - 1) >> 1;
        if (!above(heap[k]!, heap[parent]!)) break;
        [heap[k], heap[parent]] = [heap[parent]!, heap[k]!];
        k = parent;
      }
    } else if (above(heap[0]!, e)) {
      heap[0] = e;
      for (let k = 0; ; ) {
        const l = 2 * k + 1;
        const r = l + 1;
        let top = k;
        if (l < heap.length && above(heap[l]!, heap[top]!)) top = l;
        if (r < heap.length && above(heap[r]!, heap[top]!)) top = r;
        if (top === k) break;
        [heap[k], heap[top]] = [heap[top]!, heap[k]!];
        k = top;
      }
    }
  }
  heap.sort((x, y) => (above(x, y) ? 1 : -1));
  const items = heap.slice(q.start).map((e) => ({ id: c.ids[e.i]!, distanceM: q.position ? surfaceMetres(Math.sqrt(e.d)) : null }));
  return { items, total: known ?? total };
}

/** One of a search's groups after the stores bookable now: its first stores by next start, and how many there are. */
export interface BeyondGroupPage {
  items: { id: number; startMs: number }[];
  total: number;
}

/**
 * The stores that match but are not bookable now, by their next start (`next(i)`, epoch ms;
 * Infinity for none within the bookable days): those starting before `splitMs` (the end of today's
 * business day) and those after it, each the first `caps` by start then id, with exact totals.
 * Only the few kept are sorted: a pass over the matching stores with a short insertion list each.
 */
export function beyondCatalog(
  c: Catalog,
  now: Pick<NowMasks, 'mask'>,
  q: Omit<CatalogQuery, 'start' | 'count'>,
  next: (i: number) => number,
  splitMs: number,
  caps: { later: number; another: number },
): { later: BeyondGroupPage; another: BeyondGroupPage } {
  const filter = matcher(c, q);
  const later: BeyondGroupPage = { items: [], total: 0 };
  const another: BeyondGroupPage = { items: [], total: 0 };
  const slots = slotsOf(c, q.area);
  for (let j = 0; j < slots.length; j++) {
    const i = slots.at(j);
    if (now.mask(i) !== 0 || !filter(i)) continue;
    const startMs = next(i);
    if (startMs === Infinity) continue;
    const group = startMs < splitMs ? later : another;
    const cap = group === later ? caps.later : caps.another;
    group.total++;
    const items = group.items;
    // Ids come in ascending order, so a tie keeps the earlier store first.
    if (cap === 0 || (items.length === cap && items[cap - 1]!.startMs <= startMs)) continue;
    let k = items.length;
    while (k > 0 && items[k - 1]!.startMs > startMs) k--;
    items.splice(k, 0, { id: c.ids[i]!, startMs });
    if (items.length > cap) items.pop();
  }
  return { later, another };
}
