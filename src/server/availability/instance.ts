/**
 * One availability index per database in this process, kept current:
 *   - a publish on this instance re-reads the stores before it returns (events.ts onPublish);
 *   - on the process-wide database, changes heard from other instances re-read their store, and
 *     while the LISTEN connection is down the index answers nothing (callers read the database),
 *     then rebuilds when it is back, since changes may have been missed meanwhile;
 *   - the business day rolls over at 05:00: a timer rebuilds the index just after;
 *   - on PGlite, a restarted worker (src/server/db/client.ts) is followed by a rebuild.
 */
import { getDbHandle, isMainDb } from '../db/startup';
import type { Db } from '../db/types';
import { availabilityBus, onPublish, startAvailabilityFeed, type AvailabilityChange, type FeedStatus } from '../events';
import { AvailabilityIndex, type AvailabilityView, type IndexOptions } from './engine';
import { businessDayRange, businessDate } from './rules';
import { readAllStores, readStores } from './source';
import { forgetStatic } from './load';
import { addTokyoDays } from '../../lib/datetime';
import { clock } from '../clock';
import { databaseAway, noteDatabaseFailure, onDatabaseHealth, probeDatabase } from '../db/health';
import { log } from '../log';
import { reloadSafe } from '../reloadSafe';

// Kept across a module reload (npm run dev): one index per database, and its listeners.
const indexes = reloadSafe('availabilityIndexes', () => new WeakMap<Db, AvailabilityIndex>());
const state = reloadSafe('availabilityMain', (): { main?: AvailabilityIndex; wired?: boolean } => ({}));

type ReplaceListener = (db: Db, ...change: Parameters<NonNullable<IndexOptions['onReplace']>>) => void;
const replaceListeners = reloadSafe('indexReplaceListeners', () => new Set<ReplaceListener>());

/** Hears every store grid the indexes of this process replace (src/server/watches/matcher.ts). */
export function onIndexReplace(listener: ReplaceListener): void {
  replaceListeners.add(listener);
}

type RebuildListener = (db: Db, ...change: Parameters<NonNullable<IndexOptions['onRebuild']>>) => void;
const rebuildListeners = reloadSafe('indexRebuildListeners', () => new Set<RebuildListener>());

/** Hears every rebuild that replaces an earlier snapshot: the new business day's, a resync's. */
export function onIndexRebuild(listener: RebuildListener): void {
  rebuildListeners.add(listener);
}

/** Calls each listener, a failing one logged and not stopping the others or the index. */
function tell<A extends unknown[]>(listeners: Set<(...a: A) => void>, ...args: A) {
  for (const listener of listeners) {
    try {
      listener(...args);
    } catch (error) {
      log('error', 'index_listener_failed', { error: String((error as Error)?.stack ?? error) });
    }
  }
}

const FEED_RETRY_MS = 5_000;
/** After 05:00, so that "now" is in the new business day. */
const ROLL_DELAY_MS = 1_000;

export function availabilityIndex(db: Db): AvailabilityIndex {
  let index = indexes.get(db);
  if (index) return index;
  const main = isMainDb(db);
  index = new AvailabilityIndex(
    { all: (frame) => readAllStores(db, frame), some: (frame, ids) => readStores(db, frame, ids) },
    {
      ...(main ? { beforeBuild: listenFirst } : {}),
      onReplace: (...change) => tell(replaceListeners, db, ...change),
      onRebuild: (...change) => tell(rebuildListeners, db, ...change),
    },
  );
  indexes.set(db, index);
  if (main) {
    state.main = index;
    scheduleRoll(index);
  }
  return index;
}

/**
 * The index's answers at `now` for these stores, or null when the database must answer. While the
 * database is away, the last snapshot answers (with the layout's notice that booking is paused).
 */
export async function availabilityView(db: Db, now: Date, storeIds: readonly number[] = []): Promise<AvailabilityView | null> {
  const index = availabilityIndex(db);
  try {
    const view = await index.view(now, storeIds);
    if (view || !databaseAway()) return view;
  } catch (error) {
    // Logged by the index; the database path still answers, unless it is away.
    if (!noteDatabaseFailure(error) && !databaseAway()) return null;
  }
  return index.lastView(now);
}

/** On PostgreSQL, other instances' changes are heard only once LISTEN is up: start it before reading. */
async function listenFirst() {
  try {
    await startAvailabilityFeed();
  } catch {
    const main = state.main;
    main?.suspend('listen_failed');
    if (main) setTimeout(() => void main.resync('listen_retry').catch(() => {}), FEED_RETRY_MS).unref();
    throw new Error('availability feed not listening');
  }
}

function scheduleRoll(index: AvailabilityIndex) {
  const now = clock.now();
  const next = businessDayRange(addTokyoDays(businessDate(now), 1)).start.getTime();
  setTimeout(
    () => {
      void index.build().catch(() => {});
      scheduleRoll(index);
    },
    next - now.getTime() + ROLL_DELAY_MS,
  ).unref();
}

if (!state.wired) {
  state.wired = true;
  onPublish((db, storeIds) => indexes.get(db)?.refresh(storeIds) ?? Promise.resolve());
  availabilityBus.on('change', (change: AvailabilityChange) => {
    forgetStatic(change.storeId);
    if (change.remote) void state.main?.refresh([change.storeId]);
  });
  availabilityBus.on('feed', (status: FeedStatus) => {
    const main = state.main;
    if (!main) return;
    if (!status.listening) {
      main.suspend('listen_lost');
      // Most often the database itself went: find out now, before a page asks for it.
      void probeDatabase();
    } else void main.resync('listen_back').catch(() => {});
  });
  // Embedded PGlite has no feed to come back: when its worker answers again, the index is rebuilt
  // from the database, for whatever committed as the worker went (an answer lost with it).
  onDatabaseHealth((away) => {
    if (away) return;
    void getDbHandle()
      .then((h) => (h.engine === 'pglite' ? state.main?.resync('database_back') : undefined))
      .catch(() => {});
  });
}
