/**
 * Which watches a change fulfils. Each instance keeps its active watches in memory,
 * indexed by store and by area, and hears every store grid its availability index replaces
 * (src/server/availability/instance.ts): the starts at which a table that fits a watch is free
 * after the change and was not before have just become free (a cancellation, a released block, new
 * hours). Only the watches of that store and of its area are looked at, never every watch.
 *
 * Every instance hears every change, so every instance may find the same freed start: the
 * database decides, under the store's lock, which watcher holds each freed table
 * (src/server/watches/holds.ts), and the owner's pages are told wherever they are open. Only a
 * confirmed watch is offered a table.
 *
 * One module: the in-memory index of watches and the matching over it are one structure, kept
 * consistent by the same add, remove and reload calls.
 */
import type { Db } from '../db/types';
import { watches } from '../db/schema';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { availabilityView, onIndexRebuild, onIndexReplace } from '../availability/instance';
import { frameFor, gridFreedStarts, type Frame, type StoreGrid } from '../availability/grid';
import type { StoreFacts, StoreRecord } from '../availability/engine';
import { readStores } from '../availability/source';
import { offerFreed, onHoldsExpired, type ExpiredHold } from './holds';
import { ownerKey } from './alerts';
import { clock } from '../clock';
import { storeMatchesWords } from '../search';
import { reloadSafe } from '../reloadSafe';
import { searchQueryWords, type QueryWord } from '../../lib/searchText';
import { log } from '../log';

type WatchRow = typeof watches.$inferSelect;

/** What a watch needs in memory. */
export interface ActiveWatch {
  id: number;
  storeId: number | null;
  areaId: number | null;
  genre: string | null;
  /** The keyword's words, read as the listing's search reads them (src/server/search.ts). */
  keyword: QueryWord[] | null;
  partySize: number;
  from: number;
  until: number;
  /** Whose pages hear it (see ownerKey). */
  owner: string | null;
  /** Only a confirmed watch is mailed. */
  confirmed: boolean;
}

function toActive(row: WatchRow): ActiveWatch {
  const words = row.keyword ? searchQueryWords(row.keyword) : [];
  return {
    id: row.id,
    storeId: row.storeId,
    areaId: row.areaId,
    genre: row.genre,
    keyword: words.length ? words : null,
    partySize: row.partySize,
    from: row.startsFrom.getTime(),
    until: row.endsAt.getTime(),
    owner: ownerKey(row),
    confirmed: row.confirmedAt !== null,
  };
}

export class WatchMatcher {
  private readonly byId = new Map<number, ActiveWatch>();
  private readonly byStore = new Map<number, Set<ActiveWatch>>();
  private readonly byArea = new Map<number, Set<ActiveWatch>>();
  clock: () => Date = () => clock.now();
  private readonly pending = new Set<Promise<unknown>>();

  /** Keeps track of a notification under way, for idle(). */
  track(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves once the notifications under way have been written (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  get size(): number {
    return this.byId.size;
  }

  add(w: ActiveWatch): void {
    this.remove(w.id);
    this.byId.set(w.id, w);
    const [map, key] = w.storeId !== null ? [this.byStore, w.storeId] : [this.byArea, w.areaId!];
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(w);
  }

  replaceAll(list: ActiveWatch[]): void {
    this.byId.clear();
    this.byStore.clear();
    this.byArea.clear();
    for (const w of list) this.add(w);
  }

  remove(id: number): void {
    const w = this.byId.get(id);
    if (!w) return;
    this.byId.delete(id);
    const [map, key] = w.storeId !== null ? [this.byStore, w.storeId] : [this.byArea, w.areaId!];
    map.get(key)?.delete(w);
    if (map.get(key)?.size === 0) map.delete(key);
  }

  /** The watches a store's change may concern: the store's own, and its area's that its genre and keyword fit. */
  candidates(storeId: number, facts: StoreFacts | undefined): ActiveWatch[] {
    const out = [...(this.byStore.get(storeId) ?? [])];
    if (!facts) return out;
    for (const w of this.byArea.get(facts.areaId) ?? []) {
      if (w.genre && w.genre !== facts.genre) continue;
      if (w.keyword && !storeMatchesWords(w.keyword, facts)) continue;
      out.push(w);
    }
    return out;
  }

  /**
   * Per watch, the starts in its window (none already past) at which a table that fits it is free
   * after the change and was not before. Per table, not per start: when two tables free in quick
   * succession, the grid before the second change may not know yet that the first was held for a
   * watcher, so the start looks free before and after, yet the second table is one more offer to
   * make. Expired watches are dropped on the way.
   */
  freed(
    storeId: number,
    before: StoreGrid | undefined,
    after: StoreGrid | undefined,
    frame: Frame,
    beforeFrame = frame,
  ): { watch: ActiveWatch; starts: number[] }[] {
    if (!after) return [];
    const now = this.clock().getTime();
    const facts = (after as StoreGrid & { facts?: StoreFacts }).facts;
    const found: { watch: ActiveWatch; starts: number[] }[] = [];
    for (const w of this.candidates(storeId, facts)) {
      if (w.until <= now) {
        this.remove(w.id);
        continue;
      }
      const from = Math.max(w.from, now);
      const starts = gridFreedStarts(after, frame, before, beforeFrame, w.partySize, from, w.until);
      if (starts.length) found.push({ watch: w, starts });
    }
    return found;
  }
}

// Kept across a module reload (npm run dev): one matcher per database.
const matchers = reloadSafe('watchMatchers', () => new WeakMap<Db, { matcher: WatchMatcher; loaded: Promise<void> }>());

/** Reads the active watches into the matcher, in place of what it held. */
async function load(db: Db, matcher: WatchMatcher): Promise<void> {
  const rows = await db
    .select()
    .from(watches)
    .where(and(isNull(watches.cancelledAt), gt(watches.endsAt, matcher.clock())));
  matcher.replaceAll(rows.map(toActive));
}

/** The matcher of `db` in this process, loaded with the active watches on first use. */
export function watchMatcher(db: Db): { matcher: WatchMatcher; loaded: Promise<void> } {
  let entry = matchers.get(db);
  if (!entry) {
    const matcher = new WatchMatcher();
    const loaded = load(db, matcher);
    loaded.catch(() => matchers.delete(db));
    matchers.set(db, (entry = { matcher, loaded }));
  }
  return entry;
}

/**
 * Reads the watches again: those made, confirmed or cancelled through other instances are known
 * here from then on (until then, the instance that handled them notifies them).
 */
export async function reloadWatches(db: Db): Promise<void> {
  const entry = watchMatcher(db);
  await entry.loaded;
  await load(db, entry.matcher);
}

/**
 * Reads one watch again (it was made, confirmed or cancelled, here or on another instance: see
 * src/server/watches/feed.ts): an active one is matched from now on, any other no longer.
 */
export async function refreshWatch(db: Db, id: number): Promise<void> {
  const entry = matchers.get(db);
  if (!entry) return;
  await entry.loaded;
  const [row] = await db.select().from(watches).where(eq(watches.id, id));
  if (row && !row.cancelledAt && row.endsAt > entry.matcher.clock()) entry.matcher.add(toActive(row));
  else entry.matcher.remove(id);
}

/** Reads an owner's active watches (a page of theirs opened a stream here), wherever they were made. */
export async function loadOwnerWatches(db: Db, owner: string): Promise<void> {
  const entry = watchMatcher(db);
  await entry.loaded;
  const whose = owner.startsWith('u:') ? eq(watches.userId, Number(owner.slice(2))) : and(isNull(watches.userId), eq(watches.deviceTokenHash, owner.slice(2)));
  const rows = await db
    .select()
    .from(watches)
    .where(and(whose, isNull(watches.cancelledAt), gt(watches.endsAt, entry.matcher.clock())));
  for (const row of rows) entry.matcher.add(toActive(row));
}

/** A watch made or confirmed on this instance (the others hear of it through src/server/watches/feed.ts). */
export function watchAdded(db: Db, row: WatchRow): void {
  if (!row.cancelledAt) watchMatcher(db).matcher.add(toActive(row));
}

export function watchRemoved(db: Db, id: number): void {
  matchers.get(db)?.matcher.remove(id);
}

type Entry = { matcher: WatchMatcher; loaded: Promise<void> };

/**
 * Offers the freed starts to their watchers one at a time (src/server/watches/holds.ts): the
 * database decides, under the store's lock, which watcher holds each start; that one's open pages
 * are told at once and a mail goes to them.
 */
function deliver(db: Db, entry: Entry, storeId: number, found: { watch: ActiveWatch; starts: number[] }[]): void {
  if (!found.length) return;
  entry.matcher.track(
    offerFreed(db, storeId, found, entry.matcher.clock()).catch((error: unknown) =>
      log('error', 'watch_offer_failed', { store: storeId, error: String((error as Error)?.stack ?? error) }),
    ),
  );
}

onIndexReplace((db, storeId, before, after, frame) => {
  const entry = matchers.get(db);
  if (entry) deliver(db, entry, storeId, entry.matcher.freed(storeId, before, after, frame));
});

// A new business day's snapshot (or one read again after changes went unheard): the starts free in
// it that were not before fire the watches too, compared instant by instant across the two frames.
onIndexRebuild((db, stores, frame, before) => {
  const entry = matchers.get(db);
  if (!entry || entry.matcher.size === 0) return;
  for (const [storeId, after] of stores) deliver(db, entry, storeId, entry.matcher.freed(storeId, before.stores.get(storeId), after, frame, before.frame));
});

/**
 * The listing facts (area, genre, name) of these stores, which area watches are matched on: from
 * the index, or, while it has no answer (its LISTEN connection down, a rebuild under way), from the
 * database, so that an expired hold's start still reaches the area's watchers. Empty only when the
 * database is away too, and then no start can be offered anyway.
 */
async function factsOf(db: Db, now: Date, storeIds: readonly number[]): Promise<(id: number) => StoreFacts | undefined> {
  const view = await availabilityView(db, now, storeIds).catch(() => null);
  if (view) return (id) => view.facts(id);
  const read = await readStores(db, frameFor(now), storeIds).catch(() => new Map<number, StoreRecord>());
  return (id) => read.get(id)?.facts;
}

/**
 * The starts of expired holds, offered to the next watchers in their windows (the database decides
 * again, under the store's lock, whether a table is free and who is next; a watch already offered a
 * start is not offered it twice). The hold is marked expired once, by one instance: a watcher left
 * out here would never be offered the start.
 */
async function offerExpired(db: Db, expired: readonly ExpiredHold[], now: Date): Promise<void> {
  const entry = watchMatcher(db);
  await entry.loaded;
  const storeIds = [...new Set(expired.map((e) => e.storeId))];
  const facts = await factsOf(db, now, storeIds);
  for (const storeId of storeIds) {
    const starts = [...new Set(expired.filter((e) => e.storeId === storeId).map((e) => e.startsAt.getTime()))].filter((s) => s > now.getTime());
    const found: { watch: ActiveWatch; starts: number[] }[] = [];
    for (const w of entry.matcher.candidates(storeId, facts(storeId))) {
      const inWindow = starts.filter((s) => s >= w.from && s <= w.until);
      if (inWindow.length) found.push({ watch: w, starts: inWindow });
    }
    deliver(db, entry, storeId, found);
  }
}

onHoldsExpired((db, expired, now) => {
  const entry = watchMatcher(db);
  entry.matcher.track(
    offerExpired(db, expired, now).catch((error: unknown) => log('error', 'watch_offer_failed', { error: String((error as Error)?.stack ?? error) })),
  );
});
