/**
 * The availability index of one app instance (docs/availability-index.md): every store's grid
 * (grid.ts) for the current frame, read from the database at start, kept current by re-reading
 * one store whenever a change to it is announced, and rebuilt when the business day rolls over at
 * 05:00 or after the instance may have missed changes. The database stays the judge of every
 * booking: a stale index can at worst offer a start that the booking then refuses with a 409.
 *
 * One module: the index's life (build at start, re-read one store on a change, roll over at 05:00,
 * rebuild after a missed change) is one class over one shared state; none of its parts runs apart
 * from the others.
 */
import { bookableDates, businessDate, businessDayRange, nextMarks, type Slot } from './rules';
import {
  beyondCatalog,
  buildCatalog,
  countBookable,
  countKeys,
  searchCatalog,
  tagBitsOf,
  type BeyondGroupPage,
  type Catalog,
  type CatalogPage,
  type CatalogQuery,
} from './catalog';
import type { StorePhoto } from '../db/schema';
import {
  buildStoreGrid,
  frameFor,
  gridBookableNow,
  gridDaySlots,
  gridFirstSlotFrom,
  gridIsBookableNow,
  gridNowMask,
  type Frame,
  type OpenRowCache,
  type StoreGrid,
  type StoreInput,
} from './grid';
import type { Genre, TableKind } from '../../lib/contract/enums';
import { clock } from '../clock';
import { BoundedCache } from '../../lib/boundedCache';

/**
 * The groups after "now" kept per set of bookable-now masks (party, kind, 15-minute period), by
 * filters and caps: at most this many each, and at most 64 sets of masks (below), so at most 1,024
 * pages of two short lists (20 stores each, 100 in the group asked to show more).
 */
export const BEYOND_KEPT = 16;
import { log, type LogLevel } from '../log';

/**
 * What a listing card shows about a store besides availability. It changes only when the store
 * is edited, which re-reads the store like any change, so cards need no query per request.
 */
export interface StoreFacts {
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
  tags: string[];
}

export type StoreRecord = StoreInput & { facts?: StoreFacts };

export interface IndexSource {
  all(frame: Frame): Promise<Map<number, StoreRecord>>;
  some(frame: Frame, ids: readonly number[]): Promise<Map<number, StoreRecord>>;
}

type Entry = StoreGrid & { facts?: StoreFacts };

/** True when the listing's flat arrays (catalog.ts) still hold for the store. */
const sameListingFacts = (a: StoreFacts | undefined, b: StoreFacts | undefined) =>
  a !== undefined &&
  b !== undefined &&
  a.areaId === b.areaId &&
  a.genre === b.genre &&
  a.lat === b.lat &&
  a.lng === b.lng &&
  a.budgetMin === b.budgetMin &&
  a.budgetMax === b.budgetMax &&
  a.walkMinutes === b.walkMinutes &&
  tagBitsOf(a.tags) === tagBitsOf(b.tags);
const entryOf = (frame: Frame, record: StoreRecord, cache?: OpenRowCache): Entry =>
  Object.assign(buildStoreGrid(frame, record, cache), { facts: record.facts });

export interface IndexOptions {
  /** Where "now" comes from when a caller does not say; tests pass a controlled clock. */
  clock?: () => Date;
  /** Runs before each build (the LISTEN connection must be up before the read starts). */
  beforeBuild?: () => Promise<void>;
  log?: (fields: Record<string, unknown>) => void;
  /**
   * Told each time a store's grid is replaced by a re-read (before: the grid answering until
   * then), so that watchers can see which starts became free; undefined for a store that came or
   * went. Called after the new grid answers.
   */
  onReplace?: (storeId: number, before: StoreGrid | undefined, after: StoreGrid | undefined, frame: Frame) => void;
  /**
   * Told when a build replaces an earlier snapshot (a new business day, a resync after changes
   * went unheard), with the grids before and after, so that watchers see the starts it freed.
   */
  onRebuild?: (after: ReadonlyMap<number, StoreGrid>, frame: Frame, before: { stores: ReadonlyMap<number, StoreGrid>; frame: Frame }) => void;
}

interface Snapshot {
  frame: Frame;
  stores: Map<number, Entry>;
  /** The stores as flat arrays for the listing, made on first use, remade when stores come or go. */
  catalog?: Catalog;
  /**
   * Bookable-now marks per catalog slot (catalog.ts NowMasks), per party, seat kind and set of next
   * marks (so it holds for one 15-minute period); kept current store by store as changes are applied.
   */
  bookable: Map<string, Bookable>;
  /** The largest party one table seats, over every store: found on first use, forgotten when a store is re-read. */
  largestParty?: number;
}

interface Bookable {
  party: number;
  kind?: TableKind;
  now: Date;
  masks: Uint8Array;
  /** Stores bookable now per count key (catalog.ts countKeys), kept current with the masks. */
  counts: Map<string, number>;
  /**
   * Each store's first free start from now to the last bookable day (epoch ms; Infinity for none,
   * NaN until asked): found on first use per store, for the search's groups after "now".
   */
  next?: Float64Array;
  /**
   * The groups after "now" already found for these masks (filters and caps as key): a listing that
   * is empty or nearly so shows them on every view, and finding them is a pass over every store.
   * Forgotten whenever a re-read changes a store's mask or next start.
   */
  beyond?: BoundedCache<string, { later: BeyondGroupPage; another: BeyondGroupPage }>;
}

export interface BuildStats {
  date: string;
  stores: number;
  ms: number;
  /** Bytes held by the grids' bit rows. */
  bytes: number;
}

/** Answers for one instant; each method answers undefined for a store the index does not hold. */
export interface AvailabilityView {
  readonly now: Date;
  /** The frame answering (the previous day's for a moment after 05:00). */
  readonly frame: Frame;
  has(storeId: number): boolean;
  facts(storeId: number): StoreFacts | undefined;
  /** Every store it holds. */
  ids(): number[];
  /** How many stores each area has. */
  storesPerArea(): Map<number, number>;
  /** The FILTER_TAG_KEYS bits some store carries. */
  tagsInUse(): number;
  /** A page of the stores bookable now for the party (at a table of the kind) that match, with the exact total. */
  search(query: CatalogQuery & { party: number; kind?: TableKind }): CatalogPage;
  /**
   * The stores that match but are not bookable now, by their next free start: later in today's
   * business day, or on another bookable day; each group its first `caps` stores, with its total.
   */
  beyond(
    query: Omit<CatalogQuery, 'start' | 'count'> & { party: number; kind?: TableKind },
    caps: { later: number; another: number },
  ): { later: BeyondGroupPage; another: BeyondGroupPage };
  /** The largest party one table diners may book can seat, over every store (the empty listing's advice). */
  largestParty(): number;
  /** Reads the stores the index does not hold yet (created since the build). */
  load(storeIds: readonly number[]): Promise<void>;
  isBookableNow(storeId: number, party: number): boolean;
  bookableNow(storeId: number, party: number, kind?: TableKind): { nextSlots: Slot[]; freeTables: number } | undefined;
  /** The first start in [fromMs, toMs) with a free fitting table; null when none or outside the frame. */
  firstSlotFrom(storeId: number, party: number, fromMs: number, toMs: number, kind?: TableKind): Slot | null | undefined;
  /** Null when the day is outside the index's frame (the caller reads the database instead). */
  daySlots(storeId: number, date: string, party: number, kind?: TableKind): Slot[] | null | undefined;
}

const defaultLog = ({ level = 'info', msg, ...fields }: Record<string, unknown>) => log(level as LogLevel, String(msg), fields);

export class AvailabilityIndex {
  private current: Snapshot | null = null;
  private building: { date: string; done: Promise<Snapshot> } | null = null;
  /** The newest build started wins, whatever order the builds finish in. */
  private generation = 0;
  private readonly queue = new Set<number>();
  private waiters: (() => void)[] = [];
  private idle: (() => void)[] = [];
  private refreshing = false;
  /** False while changes may be going unheard (LISTEN down): callers then read the database. */
  private trusted = true;
  private readonly clock: () => Date;
  private readonly log: (fields: Record<string, unknown>) => void;
  lastBuild: BuildStats | null = null;
  /** Stores re-read after changes, for tests and the benchmark. */
  refreshed = 0;

  /** Pages of the groups after "now" kept (BEYOND_KEPT), for tests. */
  keptBeyondPages(): number {
    let n = 0;
    for (const b of this.current?.bookable.values() ?? []) n += b.beyond?.size ?? 0;
    return n;
  }

  constructor(
    private readonly source: IndexSource,
    private readonly options: IndexOptions = {},
  ) {
    this.clock = options.clock ?? (() => clock.now());
    this.log = options.log ?? defaultLog;
  }

  get frame(): Frame | null {
    return this.current?.frame ?? null;
  }

  get size(): number {
    return this.current?.stores.size ?? 0;
  }

  /**
   * The answers at `now`, or null when the index cannot be trusted right now. Builds on first use
   * and when `now` is on another business day; a day that has just begun is served from the old
   * frame (it still covers the next hour) while the new one is built.
   */
  async view(now: Date = this.clock(), storeIds: readonly number[] = []): Promise<AvailabilityView | null> {
    if (!this.trusted) return null;
    let snap = this.current;
    const date = businessDate(now);
    if (!snap || date < snap.frame.date) snap = await this.build(now);
    else if (date > snap.frame.date) {
      const roll = this.build(now);
      if (now.getTime() + 24 * 3600_000 > snap.frame.endMs) snap = await roll;
      else roll.catch(() => {});
    }
    const view = viewOf(snap, now, (ids) => this.refresh(ids));
    await view.load(storeIds);
    return this.trusted ? view : null;
  }

  /**
   * The last snapshot's answers at `now` whether or not it can be trusted, reading nothing: while
   * the database is away nobody can book, so what it held when the database went is what there is.
   * Null before the first build or once `now` is past its frame.
   */
  lastView(now: Date = this.clock()): AvailabilityView | null {
    const snap = this.current;
    if (!snap || now.getTime() >= snap.frame.endMs) return null;
    return viewOf(snap, now, () => Promise.resolve());
  }

  /** Reads the whole index for the frame of `now` and swaps it in; one build per day at a time. */
  build(now: Date = this.clock()): Promise<Snapshot> {
    const frame = frameFor(now);
    if (this.building?.date === frame.date) return this.building.done;
    const generation = ++this.generation;
    const done = (async () => {
      await this.options.beforeBuild?.();
      const started = performance.now();
      const inputs = await this.source.all(frame);
      const stores = new Map<number, Entry>();
      const cache: OpenRowCache = new Map();
      let bytes = 0;
      for (const [id, input] of inputs) {
        const grid = entryOf(frame, input, cache);
        bytes += grid.bits.byteLength;
        stores.set(id, grid);
      }
      const snap: Snapshot = { frame, stores, bookable: new Map() };
      const previous = this.current;
      if (generation === this.generation) {
        this.current = snap;
        if (previous) this.options.onRebuild?.(stores, frame, previous);
      }
      this.lastBuild = { date: frame.date, stores: stores.size, ms: Math.round(performance.now() - started), bytes };
      this.log({ msg: 'availability_index_built', ...this.lastBuild });
      return snap;
    })();
    const entry = { date: frame.date, done };
    this.building = entry;
    const clear = () => {
      if (this.building === entry) this.building = null;
    };
    done.then(clear, (error) => {
      clear();
      this.log({ level: 'error', msg: 'availability_index_build_failed', error: String((error as Error)?.stack ?? error) });
    });
    return done;
  }

  /**
   * Re-reads these stores (a booking, a cancellation, new hours, tables or stay length). Resolves
   * once a read that began after this call has been applied, so a caller that committed a change
   * and then awaits this sees it in every later answer. Reads are serialised and batched.
   */
  refresh(storeIds: readonly number[]): Promise<void> {
    if (!storeIds.length || (!this.current && !this.building)) return Promise.resolve();
    for (const id of storeIds) this.queue.add(id);
    const done = new Promise<void>((resolve) => this.waiters.push(resolve));
    void this.drain();
    return done;
  }

  /** Resolves once every re-read asked for until now has been applied (or has failed). */
  settled(): Promise<void> {
    if (!this.refreshing && this.queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async drain() {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      while (this.queue.size) {
        // A build in progress may have read these stores before their change: re-read after it.
        if (this.building) await this.building.done.catch(() => {});
        const ids = [...this.queue];
        this.queue.clear();
        const waiters = this.waiters;
        this.waiters = [];
        const snap = this.current;
        if (snap) {
          try {
            const inputs = await this.source.some(snap.frame, ids);
            // Applied only to the frame it was read for; a newer build read after the change anyway.
            if (this.current === snap) {
              for (const id of ids) {
                const input = inputs.get(id);
                const before = snap.stores.get(id);
                const entry = input ? entryOf(snap.frame, input) : undefined;
                if (entry) snap.stores.set(id, entry);
                else snap.stores.delete(id);
                this.options.onReplace?.(id, before, entry, snap.frame);
                snap.largestParty = undefined;
                const slot = snap.catalog?.slotOf.get(id);
                if (slot === undefined || !entry || !sameListingFacts(before?.facts, entry.facts)) {
                  // A store came, went or moved: the flat arrays are made again on next use.
                  snap.catalog = undefined;
                  snap.bookable.clear();
                } else {
                  const keys = countKeys(snap.catalog!.areaIds[slot]!, snap.catalog!.genres[slot]!);
                  for (const b of snap.bookable.values()) {
                    const was = b.masks[slot] !== 0;
                    b.masks[slot] = gridNowMask(entry, snap.frame, b.party, b.now, b.kind) ?? 0;
                    const is = b.masks[slot] !== 0;
                    if (was !== is) for (const key of keys) b.counts.set(key, (b.counts.get(key) ?? 0) + (is ? 1 : -1));
                    if (b.next) b.next[slot] = NaN;
                    b.beyond?.clear();
                  }
                }
              }
              this.refreshed += ids.length;
            }
          } catch (error) {
            // The database answered nothing: nobody waits for the index (a booking has committed and
            // must answer), the stores are read again shortly, and until then the database still
            // refuses any start the index wrongly offers.
            this.log({ level: 'error', msg: 'availability_refresh_failed', stores: ids.length, error: String(error) });
            for (const w of waiters) w();
            for (const id of ids) this.queue.add(id);
            await new Promise((r) => setTimeout(r, 1000).unref());
            continue;
          }
        }
        for (const w of waiters) w();
      }
    } finally {
      this.refreshing = false;
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Changes may go unheard from now on: answer nothing until `resync`. */
  suspend(reason: string) {
    if (!this.trusted) return;
    this.trusted = false;
    this.log({ level: 'warn', msg: 'availability_index_suspended', reason, fallback: 'database' });
  }

  /** Rebuilds from the database (whatever was missed is in it) and answers again. */
  async resync(reason: string): Promise<void> {
    this.suspend(reason);
    this.building = null;
    await this.build();
    this.trusted = true;
    this.log({ msg: 'availability_index_resumed', reason });
  }
}

function viewOf(snap: Snapshot, now: Date, refresh: (ids: readonly number[]) => Promise<void>): AvailabilityView {
  const { frame, stores } = snap;
  /** The bookable-now masks of the party and kind for this 15-minute period, made on first use. */
  const bookableOf = (catalog: Catalog, party: number, kind: TableKind | undefined): Bookable => {
    const marks = nextMarks(now);
    const key = `${party}:${kind ?? ''}:${marks[0]?.getTime()}:${marks.length}`;
    let bookable = snap.bookable.get(key);
    if (!bookable) {
      // Older periods are never asked about again; a handful of parties and kinds per period is usual.
      if (snap.bookable.size >= 64) snap.bookable.clear();
      const masks = new Uint8Array(catalog.ids.length);
      for (let i = 0; i < masks.length; i++) masks[i] = gridNowMask(stores.get(catalog.ids[i]!)!, frame, party, now, kind) ?? 0;
      snap.bookable.set(key, (bookable = { party, kind, now, masks, counts: countBookable(catalog, (i) => masks[i]!) }));
    }
    return bookable;
  };
  return {
    now,
    frame,
    has: (id) => stores.has(id),
    facts: (id) => stores.get(id)?.facts,
    ids: () => [...stores.keys()],
    storesPerArea() {
      // Counted once per catalog (it is made again when a store comes, goes or moves), not per page.
      const catalog = (snap.catalog ??= buildCatalog(stores));
      return new Map(Array.from(catalog.areaSlots, ([area, slots]) => [area, slots.length]));
    },
    tagsInUse: () => (snap.catalog ??= buildCatalog(stores)).tagsInUse,
    search(query) {
      const catalog = (snap.catalog ??= buildCatalog(stores));
      const marks = nextMarks(now);
      const { masks, counts } = bookableOf(catalog, query.party, query.kind);
      return searchCatalog(catalog, { marks: marks.map((m) => m.getTime()), mask: (i) => masks[i]!, now, counts }, query);
    },
    beyond(query, caps) {
      const catalog = (snap.catalog ??= buildCatalog(stores));
      const { party, kind } = query;
      const bookable = bookableOf(catalog, party, kind);
      // A keyword's matches are not kept by: they are as many as the keywords asked.
      const key = query.only
        ? undefined
        : JSON.stringify([query.area, query.genre, query.budgetMin, query.budgetMax, query.tags ?? 0, caps.later, caps.another]);
      const kept = key === undefined ? undefined : bookable.beyond?.get(key);
      if (kept) return kept;
      const next = (bookable.next ??= new Float64Array(catalog.ids.length).fill(NaN));
      const today = businessDayRange(businessDate(now)).end.getTime();
      const horizon = businessDayRange(bookableDates(now).at(-1)!).end.getTime();
      const nextOf = (i: number) => {
        let ms = next[i]!;
        if (Number.isNaN(ms)) {
          const g = stores.get(catalog.ids[i]!);
          next[i] = ms = (g && gridFirstSlotFrom(g, frame, party, now.getTime(), horizon, kind)?.start.getTime()) ?? Infinity;
        }
        return ms;
      };
      const found = beyondCatalog(catalog, { mask: (i) => bookable.masks[i]! }, query, nextOf, today, caps);
      if (key !== undefined) (bookable.beyond ??= new BoundedCache(BEYOND_KEPT)).set(key, found);
      return found;
    },
    largestParty() {
      // Asked by every empty listing: one pass over every store's tables, then kept until a re-read.
      if (snap.largestParty === undefined) {
        let most = 0;
        for (const g of stores.values()) for (const t of g.tables) if (t.online && t.maxParty > most) most = t.maxParty;
        snap.largestParty = most;
      }
      return snap.largestParty;
    },
    async load(ids) {
      // A store created since the build: read it now, once.
      const missing = ids.filter((id) => !stores.has(id));
      if (missing.length) await refresh(missing);
    },
    isBookableNow(id, party) {
      const g = stores.get(id);
      return g ? gridIsBookableNow(g, frame, party, now) === true : false;
    },
    bookableNow(id, party, kind) {
      const g = stores.get(id);
      return g ? (gridBookableNow(g, frame, party, now, kind) ?? undefined) : undefined;
    },
    firstSlotFrom(id, party, fromMs, toMs, kind) {
      const g = stores.get(id);
      return g ? gridFirstSlotFrom(g, frame, party, fromMs, toMs, kind) : undefined;
    },
    daySlots(id, date, party, kind) {
      const g = stores.get(id);
      return g ? gridDaySlots(g, frame, party, date, now, kind) : undefined;
    },
  };
}
