/**
 * Availability changes: every booking, edit or cancellation announces the stores it touched.
 *
 * Subscribers in this process hear it on `availabilityBus` ('change', AvailabilityChange). Each
 * change is a row of `availability_events` (its id lets a stream resume) and, in the same
 * statement, a `pg_notify` on AVAILABILITY_CHANNEL. On PostgreSQL each instance keeps one LISTEN
 * connection (see startAvailabilityFeed) and re-emits the other instances' changes on its local
 * bus, so a booking made through instance A reaches the streams served by instance B. On the
 * embedded database there is only one process and the local bus is all there is.
 *
 * One module: the bus, the `availability_events` rows and the LISTEN feed are one mechanism: a
 * change is published, stored and heard through all three, and resuming a stream reads the same
 * rows.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { getDbHandle } from './db/startup';
import type { Db, DbHandle } from './db/types';
import { log } from './log';
import { reloadSafe } from './reloadSafe';

export const availabilityBus = new EventEmitter();
availabilityBus.setMaxListeners(0);

export interface AvailabilityChange {
  /** Id of the event row, for resuming a stream. */
  id: number;
  storeId: number;
  /** Heard from another instance (or caught up from the table), not published here. */
  remote?: boolean;
}

/**
 * Whether changes made on other instances reach this one: 'feed' events on the bus carry
 * `{ listening: boolean }` when the LISTEN connection drops and when it is back (after catching up).
 */
export interface FeedStatus {
  listening: boolean;
}

/**
 * What must happen on this instance before a publish returns (the availability index re-reads
 * the stores), so that the next request here already sees the change.
 */
type PublishHook = (db: Db, storeIds: readonly number[]) => Promise<void>;
const publishHooks = new Set<PublishHook>();
export function onPublish(hook: PublishHook): void {
  publishHooks.add(hook);
}

export const AVAILABILITY_CHANNEL = 'sugu_availability';
/** Event rows are kept this long: a stream that was away longer gets a full snapshot instead. */
export const EVENT_RETENTION_MS = 60 * 60_000;
/** pg_notify payloads must stay under 8000 bytes: ~30 bytes per event leaves ample room. */
const NOTIFY_CHUNK = 200;
const PRUNE_EVERY_MS = 10 * 60_000;

/** Tells this process's own notifications apart from the other instances'. */
const ORIGIN = randomUUID();

// Recently delivered ids, so that a change heard twice (our own NOTIFY, a catch-up after the LISTEN
// connection came back) reaches the bus once.
const SEEN_MAX = 20_000;
const seen = new Set<number>();
let highestId = 0;

function deliver(change: AvailabilityChange) {
  if (seen.has(change.id)) return;
  seen.add(change.id);
  if (seen.size > SEEN_MAX) {
    // Sets iterate in insertion order: drop the oldest quarter.
    let n = SEEN_MAX / 4;
    for (const id of seen) {
      if (n-- <= 0) break;
      seen.delete(id);
    }
  }
  if (change.id > highestId) highestId = change.id;
  availabilityBus.emit('change', change);
}

/** The highest event id this process has delivered (0 before the first). */
export function lastDeliveredEventId(): number {
  return highestId;
}

let publishes = 0;

/** Records and announces that these stores' availability changed. Call after the change commits. */
export async function publishAvailabilityChange(db: Db, storeIds: readonly number[]): Promise<void> {
  const unique = [...new Set(storeIds)].filter((id) => Number.isInteger(id) && id > 0);
  const local = Promise.all([...publishHooks].map((hook) => hook(db, unique)));
  for (let i = 0; i < unique.length; i += NOTIFY_CHUNK) {
    const chunk = unique.slice(i, i + NOTIFY_CHUNK);
    // One statement: the rows and the notification commit (or fail) together.
    const rows = await db.execute<{ id: string | number; store_id: number }>(sql`
      with ins as (
        insert into availability_events (store_id)
        select unnest(${`{${chunk.join(',')}}`}::int[])
        returning id, store_id
      ), note as (
        select pg_notify(${AVAILABILITY_CHANNEL}, json_build_object('o', ${ORIGIN}::text, 'e', json_agg(json_build_array(id, store_id)))::text)
        from ins
      )
      select ins.id, ins.store_id from ins, note`);
    for (const row of rows) deliver({ id: Number(row.id), storeId: Number(row.store_id) });
  }
  await local;
  if (++publishes % 500 === 0) void pruneAvailabilityEvents(db).catch(() => {});
}

/** Deletes event rows older than the retention period. Safe to run from several instances at once. */
export async function pruneAvailabilityEvents(db: Db, olderThanMs = EVENT_RETENTION_MS): Promise<number> {
  const rows = await db.execute(sql`delete from availability_events where created_at < now() - make_interval(secs => ${olderThanMs / 1000}) returning id`);
  return rows.length;
}

/** Event rows after `afterId` for these stores (distinct store ids), oldest first. */
export async function storesChangedSince(db: Db, afterId: number, storeIds: readonly number[]): Promise<number[]> {
  if (!storeIds.length) return [];
  const rows = await db.execute<{ store_id: number }>(sql`
    select distinct store_id from availability_events
    where id > ${afterId} and store_id = any(${`{${storeIds.join(',')}}`}::int[])`);
  return rows.map((r) => Number(r.store_id));
}

/** The newest event id in the database (0 when there is none). */
export async function newestEventId(db: Db): Promise<number> {
  const rows = await db.execute<{ id: string | number | null }>(sql`select max(id) as id from availability_events`);
  return Number(rows[0]?.id ?? 0);
}

interface Feed {
  ready: Promise<void>;
  stop(): Promise<void>;
}

// Kept across a module reload (npm run dev): one LISTEN connection per process.
const feedState = reloadSafe('availabilityFeed', (): { current?: Feed } => ({}));

/**
 * Starts (once per process) what keeps the local bus complete: on PostgreSQL a LISTEN connection
 * that re-emits other instances' changes (catching up from the table whenever it (re)connects),
 * and on every engine the periodic pruning of old rows. Idempotent; resolves when listening.
 */
export function startAvailabilityFeed(): Promise<void> {
  feedState.current ??= createFeed();
  return feedState.current.ready;
}

/** Stops the LISTEN connection and the pruning timer (graceful shutdown, tests). */
export async function stopAvailabilityFeed(): Promise<void> {
  const feed = feedState.current;
  feedState.current = undefined;
  await feed?.stop();
}

function createFeed(): Feed {
  let stopped = false;
  let unlisten: (() => Promise<void>) | undefined;
  let handle: DbHandle | undefined;
  const prune = setInterval(() => {
    if (handle) void pruneAvailabilityEvents(handle.db).catch(() => {});
  }, PRUNE_EVERY_MS);
  prune.unref();

  const ready = (async () => {
    handle = await getDbHandle();
    if (highestId === 0) highestId = await newestEventId(handle.db);
    if (handle.engine !== 'postgres' || stopped) return;
    const h = handle;
    let connectedOnce = false;
    const catchUp = async () => {
      // Changes committed while the LISTEN connection was away were never notified to us.
      const rows = await h.db.execute<{ id: string | number; store_id: number }>(
        sql`select id, store_id from availability_events where id > ${highestId} order by id limit 5000`,
      );
      for (const r of rows) deliver({ id: Number(r.id), storeId: Number(r.store_id), remote: true });
      return rows.length;
    };
    let retry: NodeJS.Timeout | undefined;
    const onListen = () => {
      clearInterval(retry);
      retry = undefined;
      if (!connectedOnce) {
        connectedOnce = true;
        return;
      }
      void catchUp()
        .then(() => availabilityBus.emit('feed', { listening: true } satisfies FeedStatus))
        .catch((e) => logError('availability_catch_up_failed', e));
    };
    const listening = await h.sql.listen(AVAILABILITY_CHANNEL, onNotify, onListen);
    unlisten = listening.unlisten;
    watchListenConnection(h, () => {
      if (stopped || retry) return;
      log('warn', 'availability_listen_lost', { fallback: 'database' });
      availabilityBus.emit('feed', { listening: false } satisfies FeedStatus);
      // postgres.js listens again by itself, but gives up if that one attempt fails: keep asking.
      retry = setInterval(() => {
        if (stopped) return clearInterval(retry);
        h.sql.listen(AVAILABILITY_CHANNEL, onNotify, onListen).then(
          (l) => (unlisten = l.unlisten),
          () => {},
        );
      }, LISTEN_RETRY_MS);
      retry.unref();
    });
  })();
  ready.catch((e) => {
    logError('availability_feed_failed', e);
    if (feedState.current?.ready === ready) feedState.current = undefined;
  });

  return {
    ready,
    async stop() {
      stopped = true;
      clearInterval(prune);
      await ready.catch(() => {});
      await unlisten?.().catch(() => {});
    },
  };
}

const LISTEN_RETRY_MS = 5_000;

/**
 * postgres.js keeps LISTEN on a connection of its own and reconnects it, but tells no one that it
 * dropped; its `onclose` option is read at each close, so it can be wrapped here.
 */
function watchListenConnection(h: DbHandle, onLost: () => void) {
  const inner = (h.sql.listen as unknown as { sql?: { options?: { onclose?: (...args: unknown[]) => void } } }).sql;
  const options = inner?.options;
  if (!options) return;
  const previous = options.onclose;
  options.onclose = (...args) => {
    onLost();
    previous?.(...args);
  };
}

function onNotify(payload: string) {
  let msg: { o?: string; e?: [number | string, number][] };
  try {
    msg = JSON.parse(payload);
  } catch {
    return;
  }
  if (msg.o === ORIGIN || !Array.isArray(msg.e)) return;
  for (const [id, storeId] of msg.e) deliver({ id: Number(id), storeId: Number(storeId), remote: true });
}

function logError(msg: string, error: unknown) {
  log('error', msg, { error: String((error as Error)?.stack ?? error) });
}
