/**
 * Every store the index holds, in id order, as flat arrays: what the listing filters on (area,
 * genre) and orders by (id, or distance from the diner), so that a page of the bookable-now
 * listing with its exact total is one pass over typed arrays, whatever the number of stores.
 * Distances are computed as PostgreSQL's earthdistance computes them (ll_to_earth, earth_distance),
 * so the order and the metres shown are the ones SQL gave.
 */

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
}

/** What the listing filters and orders on, of a store's card facts. */
export interface Placed {
  areaId: number;
  genre: string;
  lat: number;
  lng: number;
}

export function buildCatalog(stores: ReadonlyMap<number, { facts?: Placed }>): Catalog {
  const ids = Int32Array.from([...stores.keys()].filter((id) => stores.get(id)!.facts)).sort();
  const n = ids.length;
  const c: Catalog = { ids, slotOf: new Map(), x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n), areaIds: new Int32Array(n), genres: new Array<string>(n) };
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
  }
  return c;
}

/** Metres along the surface for a chord of the unit sphere, as earth_distance gives them. */
export const surfaceMetres = (chord: number) => 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, chord / 2));

export interface CatalogQuery {
  area?: number;
  genre?: string;
  /** Only these stores (a keyword's matches, found in SQL). */
  only?: ReadonlySet<number>;
  position?: { lat: number; lng: number } | null;
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
 * One page of the stores that match and pass `keep` (bookable now), nearest first when a position
 * is given (ties by id), else by id, with the exact total.
 */
export function searchCatalog(c: Catalog, keep: (slot: number) => boolean, q: CatalogQuery): CatalogPage {
  const n = c.ids.length;
  const matches = (i: number) =>
    (q.area === undefined || c.areaIds[i] === q.area) && (q.genre === undefined || c.genres[i] === q.genre) && (!q.only || q.only.has(c.ids[i]!)) && keep(i);
  const wanted = q.start + q.count;
  let total = 0;
  if (!q.position) {
    const items: CatalogPage['items'] = [];
    for (let i = 0; i < n; i++) {
      if (!matches(i)) continue;
      if (total >= q.start && total < wanted) items.push({ id: c.ids[i]!, distanceM: null });
      total++;
    }
    return { items, total };
  }
  const lat = q.position.lat * RAD;
  const lng = q.position.lng * RAD;
  const px = Math.cos(lat) * Math.cos(lng);
  const py = Math.cos(lat) * Math.sin(lng);
  const pz = Math.sin(lat);
  // The `wanted` nearest so far, as a max-heap on (squared chord, id): the farthest is on top.
  const heap: { d: number; i: number }[] = [];
  const above = (a: { d: number; i: number }, b: { d: number; i: number }) => a.d > b.d || (a.d === b.d && c.ids[a.i]! > c.ids[b.i]!);
  for (let i = 0; i < n; i++) {
    if (!matches(i)) continue;
    total++;
    if (wanted === 0) continue;
    const dx = c.x[i]! - px;
    const dy = c.y[i]! - py;
    const dz = c.z[i]! - pz;
    const e = { d: dx * dx + dy * dy + dz * dz, i };
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
  heap.sort((a, b) => (above(a, b) ? 1 : -1));
  const items = heap.slice(q.start).map((e) => ({ id: c.ids[e.i]!, distanceM: surfaceMetres(Math.sqrt(e.d)) }));
  return { items, total };
}
