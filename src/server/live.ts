/**
 * Live availability over Server-Sent Events (GET /api/availability/stream).
 *
 * One hub per process holds every open stream, indexed by store. A change on the availability bus
 * (a booking here, or on another instance through LISTEN/NOTIFY) marks the store dirty; dirty
 * stores are recomputed together after a few milliseconds, so a burst of bookings and any number
 * of streams watching the same store and party cost one load and one serialisation. The same
 * happens for every watched store as each 15-minute mark passes (one timer per process), and one
 * heartbeat timer keeps every stream alive through proxies.
 *
 * Event ids are `<event cursor>-<mark epoch>`: a reconnecting EventSource sends the last one as
 * Last-Event-ID, and the stream replays the stores whose availability changed since (or
 * everything, when a 15-minute mark passed meanwhile, since then every store's slots moved).
 *
 * One module: the stream hub's state (open streams by store, the dirty set, the mark and heartbeat
 * timers, draining) is what every function here reads and changes.
 */
import * as z from 'zod/mini';
import { MINUTE_MS, toTokyoIso } from '../lib/datetime';
import { availabilityIndex, availabilityView, bookableNow, loadStoreStates, SLOT_STEP_MIN, type Slot, type StoreState } from './availability';
import { partyField } from './stores/query';
import { getDb } from './db/startup';
import { availabilityBus, lastDeliveredEventId, startAvailabilityFeed, stopAvailabilityFeed, storesChangedSince, type AvailabilityChange } from './events';
import { onShutdown } from './shutdown';
import { STREAM_STORES_MAX } from '../lib/contract/limits';
import { watchAlerts } from './watches/alerts';
import type { WatchAlert } from '../lib/contract/watches';
import { clock } from './clock';
import { config } from './config';
import type { LiveAvailability } from '../lib/contract/live';
import { log } from './log';
import { reloadSafe } from './reloadSafe';

/** Comment lines every 15 s (SUGU_SSE_HEARTBEAT_MS) keep proxies and load balancers from closing an idle stream. */
export const heartbeatMs = (): number => config().SUGU_SSE_HEARTBEAT_MS;
/** What EventSource waits before reconnecting. */
export const RETRY_MS = 3_000;
/** Changes arriving within this window are recomputed together. */
const COALESCE_MS = 15;
/** A mark has passed: recompute slightly after it so that "now" is past it. */
const MARK_DELAY_MS = 500;
/**
 * Event ids are allocated before commit, so a slightly lower id can become visible after a higher
 * one; a resume looks this far back. Replaying a store twice is harmless: events carry state.
 */
const RESUME_MARGIN = 50;
/** Bookings that can overlap a stay starting within the next hour (stays are at most a few hours). */
const LOAD_HORIZON_MS = 12 * 60 * MINUTE_MS;
const STEP_MS = SLOT_STEP_MIN * MINUTE_MS;
const WRITES_PER_SLICE = 250;

const storeIdList = z
  .pipe(
    z.string().check(z.trim(), z.regex(/^\d{1,10}(,\d{1,10})*$/)),
    z.transform((s: string) => [...new Set(s.split(',').map(Number))]),
  )
  .check(
    z.refine((ids) => ids.every((id) => id >= 1 && id <= 2_147_483_647), { message: 'validation.invalid' }),
    z.refine((ids) => ids.length <= STREAM_STORES_MAX, { message: 'live.tooManyStores' }),
  );

/** The query of GET /api/availability/stream: `stores=1,2,3` (at most 50) and `party` (1–20, default 2). */
export const streamQuerySchema = z.object({
  stores: storeIdList,
  party: partyField,
});
export type StreamQuery = z.infer<typeof streamQuerySchema>;

const eventData = (storeId: number, now_: { nextSlots: Slot[]; freeTables: number }): LiveAvailability => ({
  store_id: storeId,
  free_tables: now_.freeTables,
  next_slots: now_.nextSlots.map((s) => toTokyoIso(s.start)),
});

export function availabilityData(storeId: number, state: StoreState, party: number, now: Date): LiveAvailability {
  return eventData(storeId, bookableNow(state, party, now));
}

/** The 15-minute period `at` falls in: the set of "next marks" is the same throughout one. */
export const markEpoch = (at: Date) => Math.ceil(at.getTime() / STEP_MS);

export function formatEventId(cursor: number, epoch: number): string {
  return `${cursor}-${epoch}`;
}

export function parseEventId(value: string | null | undefined): { cursor: number; epoch: number } | null {
  const m = value?.trim().match(/^(\d{1,15})-(\d{1,15})$/);
  return m ? { cursor: Number(m[1]), epoch: Number(m[2]) } : null;
}

interface Client {
  requestId?: string;
  /** A watch-alert stream's owner (see src/server/watches/alerts.ts): only its own alerts reach it. */
  owner?: string;
  party: number;
  stores: readonly number[];
  /** What this stream last got per store, so that an unchanged state is not sent again. */
  sent: Map<number, string>;
  write(bytes: Uint8Array): boolean;
  close(): void;
}

function logStream(msg: string, client: Client, open: number) {
  if (!config().SUGU_LOG_REQUESTS) return;
  log('info', msg, { requestId: client.requestId, stores: client.stores.length, party: client.party, open });
}

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(': heartbeat\n\n');

class LiveHub {
  private readonly clients = new Set<Client>();
  private readonly byStore = new Map<number, Set<Client>>();
  private readonly byOwner = new Map<string, Set<Client>>();
  private readonly dirty = new Set<number>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private markTimer: NodeJS.Timeout | undefined;
  /** Stores recomputed, for the benchmark and tests. */
  recomputations = 0;

  /** Per store, the id of the last change heard (see LiveAvailability.rev). */
  private readonly revs = new Map<number, number>();

  constructor() {
    availabilityBus.on('change', (change: AvailabilityChange) => {
      if (!this.byStore.has(change.storeId)) return;
      this.revs.set(change.storeId, Math.max(change.id, this.revs.get(change.storeId) ?? 0));
      this.markDirty([change.storeId]);
    });
    watchAlerts.on('alert', (owner: string, alert: WatchAlert) => {
      const bytes = encoder.encode(`event: watch\ndata: ${JSON.stringify(alert)}\n\n`);
      for (const client of this.byOwner.get(owner) ?? []) client.write(bytes);
    });
  }

  add(client: Client) {
    this.clients.add(client);
    logStream('stream_opened', client, this.clients.size);
    for (const id of client.stores) {
      let set = this.byStore.get(id);
      if (!set) this.byStore.set(id, (set = new Set()));
      set.add(client);
    }
    if (client.owner) {
      let set = this.byOwner.get(client.owner);
      if (!set) this.byOwner.set(client.owner, (set = new Set()));
      set.add(client);
    }
    if (this.clients.size === 1) this.startTimers();
  }

  remove(client: Client) {
    if (!this.clients.delete(client)) return;
    logStream('stream_closed', client, this.clients.size);
    for (const id of client.stores) {
      const set = this.byStore.get(id);
      set?.delete(client);
      if (set?.size === 0) this.byStore.delete(id);
    }
    if (client.owner) {
      const set = this.byOwner.get(client.owner);
      set?.delete(client);
      if (set?.size === 0) this.byOwner.delete(client.owner);
    }
    if (this.clients.size === 0) this.stopTimers();
  }

  markDirty(storeIds: Iterable<number>) {
    for (const id of storeIds) this.dirty.add(id);
    this.schedule();
  }

  closeAll() {
    for (const c of [...this.clients]) c.close();
  }

  private schedule(delay = COALESCE_MS) {
    if (this.flushTimer || this.flushing || this.dirty.size === 0) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, delay);
  }

  private async flush() {
    this.flushing = true;
    const stores = [...this.dirty].filter((id) => this.byStore.has(id));
    this.dirty.clear();
    let retry = false;
    try {
      if (stores.length) await this.recompute(stores);
    } catch (error) {
      retry = true;
      for (const id of stores) this.dirty.add(id);
      log('error', 'live_recompute_failed', { stores: stores.length, error: String((error as Error)?.stack ?? error) });
    } finally {
      this.flushing = false;
      this.schedule(retry ? 1000 : COALESCE_MS);
    }
  }

  private async recompute(stores: number[]) {
    // Taken before the queries: the states read below include every change up to this cursor.
    const cursor = lastDeliveredEventId();
    const db = await getDb();
    const now = clock.now();
    // The index answers once it has applied every change heard so far (up to the cursor); while it
    // cannot be trusted, the bookings are read.
    await availabilityIndex(db).settled();
    const view = await availabilityView(db, now, stores);
    const states = view ? null : await loadStoreStates(db, stores, now, new Date(now.getTime() + LOAD_HORIZON_MS));
    const answer = (storeId: number, party: number): LiveAvailability | null => {
      if (view) {
        const a = view.bookableNow(storeId, party);
        return a ? eventData(storeId, a) : null;
      }
      const state = states!.get(storeId);
      return state ? availabilityData(storeId, state, party, now) : null;
    };
    const id = formatEventId(cursor, markEpoch(now));
    this.recomputations += stores.length;
    let writes = 0;
    for (const storeId of stores) {
      // A large fan-out is written in slices, so heartbeats and other requests get their turn.
      if (writes >= WRITES_PER_SLICE) {
        writes = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const subscribers = this.byStore.get(storeId);
      if (!subscribers) continue;
      const rev = this.revs.get(storeId) ?? 0;
      const perParty = new Map<number, { data: string; bytes: Uint8Array } | null>();
      for (const client of subscribers) {
        let message = perParty.get(client.party);
        if (message === undefined) {
          const a = answer(storeId, client.party);
          const data = a && JSON.stringify({ ...a, rev });
          message = data ? { data, bytes: encoder.encode(`id: ${id}\nevent: availability\ndata: ${data}\n\n`) } : null;
          perParty.set(client.party, message);
        }
        if (!message || client.sent.get(storeId) === message.data) continue;
        client.sent.set(storeId, message.data);
        client.write(message.bytes);
        writes++;
      }
    }
  }

  private startTimers() {
    this.heartbeat = setInterval(() => {
      for (const c of this.clients) c.write(HEARTBEAT);
    }, heartbeatMs());
    this.heartbeat.unref();
    this.scheduleMark();
  }

  private scheduleMark() {
    const now = clock.now().getTime();
    const next = Math.ceil((now + 1) / STEP_MS) * STEP_MS;
    this.markTimer = setTimeout(
      () => {
        this.markDirty(this.byStore.keys());
        this.scheduleMark();
      },
      next - now + MARK_DELAY_MS,
    );
    this.markTimer.unref();
  }

  private stopTimers() {
    clearInterval(this.heartbeat);
    clearTimeout(this.markTimer);
    this.heartbeat = this.markTimer = undefined;
  }
}

// Kept across a module reload (npm run dev): one hub and one bus listener.
const hub = reloadSafe('liveHub', () => new LiveHub());

let draining = false;

/**
 * Opens a stream: the current state of each store first (or only what changed since
 * `lastEventId`), then a message whenever a store's state for this party changes.
 * The stream ends when `signal` aborts (the client went away) or at shutdown.
 */
export async function openAvailabilityStream(query: StreamQuery, options: StreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  // Without the LISTEN connection (logged by the feed, retried by the next stream) a stream still
  // gets this instance's changes and the 15-minute updates: better than no stream at all.
  await startAvailabilityFeed().catch(() => {});
  const resume = parseEventId(options.lastEventId);
  let replay: readonly number[] = query.stores;
  if (resume && resume.epoch === markEpoch(clock.now())) {
    replay = await storesChangedSince(await getDb(), Math.max(0, resume.cursor - RESUME_MARGIN), query.stores);
  }
  return openStream({ party: query.party, stores: query.stores }, replay, options);
}

/**
 * Opens a stream of one diner's watch alerts (`event: watch`, data: WatchAlert): `owner` is the
 * request's own key (the session's account, or the device's watch token), never one a client names.
 */
export async function openWatchStream(owner: string, options: StreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  // Alerts come from this process's matcher, which the availability feed keeps hearing every change.
  await startAvailabilityFeed().catch(() => {});
  return openStream({ party: 0, stores: [], owner }, [], options);
}

interface StreamOptions {
  lastEventId?: string | null;
  signal?: AbortSignal;
  requestId?: string;
}

function openStream(
  what: { party: number; stores: readonly number[]; owner?: string },
  replay: readonly number[],
  options: StreamOptions,
): ReadableStream<Uint8Array> {
  let client: Client | undefined;
  const cleanup = () => {
    if (client) hub.remove(client);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      client = {
        requestId: options.requestId,
        ...what,
        sent: new Map(),
        write(bytes) {
          if (!open) return false;
          try {
            controller.enqueue(bytes);
            return true;
          } catch {
            this.close();
            return false;
          }
        },
        close() {
          if (!open) return;
          open = false;
          cleanup();
          try {
            controller.close();
          } catch {
            /* already closed or cancelled */
          }
        },
      };
      const c = client;
      if (options.signal?.aborted || draining) {
        c.close();
        return;
      }
      options.signal?.addEventListener('abort', () => c.close(), { once: true });
      // The first bytes go out at once, so the response headers reach the client (and any proxy) now.
      controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: ok\n\n`));
      hub.add(c);
      if (replay.length) hub.markDirty(replay);
    },
    cancel() {
      client?.close();
    },
  });
}

/** Graceful shutdown: refuse new streams and end the open ones (EventSource reconnects elsewhere). */
export async function closeAllStreams(): Promise<void> {
  draining = true;
  hub.closeAll();
  await stopAvailabilityFeed();
}

export const isDraining = () => draining;

onShutdown('stop', closeAllStreams);
