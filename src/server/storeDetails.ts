/**
 * One store's details (name, photos, hours, one-off days, largest party…) for its page, its API
 * and the booking pages, kept in memory: they change only when the store is edited, while the
 * store page is read on every view (on the embedded database that read was a fifth of the page's
 * time). Every write to a store announces it (publishAvailabilityChange: hours, tables, one-off
 * days), here and, through LISTEN/NOTIFY, on every other instance; each announcement drops that
 * store's entry, so the next view reads it again. Nothing is kept before the process-wide
 * database's LISTEN connection is up or while it is down (changes could go unheard then), and all
 * is dropped when it comes back. An entry also lapses with the Tokyo date (one-off days are read
 * from yesterday on) and after STORE_DETAIL_TTL_MS, a bound on how long a write that forgot to
 * announce itself would go unseen.
 */
import type { Db } from './db/types';
import { isMainDb } from './db/startup';
import { databaseAway } from './db/health';
import { availabilityBus, startAvailabilityFeed, type AvailabilityChange, type FeedStatus } from './events';
import { tokyoParts } from '../lib/datetime';
import { reloadSafe } from './reloadSafe';

export const STORE_DETAIL_TTL_MS = 5 * 60_000;
/** More than a city's stores viewed within the TTL; beyond it the oldest entries go first. */
const MAX_ENTRIES = 5_000;

type Entry = { value: Promise<unknown>; date: string; loadedAt: number; epoch: number; version: number };
type State = { entries: WeakMap<Db, Map<number, Entry>>; versions: Map<number, number>; epoch: number; listening: boolean; wired?: boolean };

// Kept across a module reload (npm run dev): one cache and one set of bus listeners.
const state = reloadSafe('storeDetails', (): State => ({ entries: new WeakMap(), versions: new Map(), epoch: 0, listening: true }));

/** How many announcements of a store this process has heard (the bus is process-wide: for every database). */
const versionOf = (id: number) => state.versions.get(id) ?? 0;

if (!state.wired) {
  state.wired = true;
  availabilityBus.on('change', (change: AvailabilityChange) => state.versions.set(change.storeId, (state.versions.get(change.storeId) ?? 0) + 1));
  availabilityBus.on('feed', (status: FeedStatus) => {
    state.listening = status.listening;
    // Changes may have gone unheard meanwhile: every entry is read again.
    state.epoch++;
  });
}

/**
 * `read(db, id)` through the cache. A read in flight is shared; an announcement that arrives while
 * it runs makes it stale at once, so a read that began before a write committed is never used
 * after the write. Unknown stores (null) and failed reads are not kept.
 */
export async function cachedStoreDetail<T>(db: Db, id: number, read: (db: Db, id: number) => Promise<T | null>, now = Date.now()): Promise<T | null> {
  // The database away: the details last read are what there is (nobody can change them meanwhile).
  const kept = databaseAway() ? state.entries.get(db)?.get(id) : undefined;
  if (kept) return kept.value as Promise<T | null>;
  if (isMainDb(db)) {
    try {
      await startAvailabilityFeed();
    } catch {
      return read(db, id);
    }
  }
  if (!state.listening) return read(db, id);
  let map = state.entries.get(db);
  if (!map) state.entries.set(db, (map = new Map()));
  const date = tokyoParts(new Date(now)).date;
  const version = versionOf(id);
  const hit = map.get(id);
  if (hit && hit.epoch === state.epoch && hit.version === version && hit.date === date && now - hit.loadedAt < STORE_DETAIL_TTL_MS)
    return hit.value as Promise<T | null>;
  const entry: Entry = { value: read(db, id), date, loadedAt: now, epoch: state.epoch, version };
  map.delete(id);
  map.set(id, entry);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
  const drop = () => map.get(id) === entry && map.delete(id);
  entry.value.then((v) => v === null && drop(), drop);
  return entry.value as Promise<T | null>;
}
