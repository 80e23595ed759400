/**
 * Gives memory back while the server is quiet.
 *
 * V8 keeps the pages a full garbage collection empties (a pool, for the heap to grow into again):
 * after the first start's seed, the availability index build and a burst of pages, the server held
 * 115 MB of heap pages for 40–50 MB of live objects, and 60 s of idle did not change it (V8's own
 * memory reducer did not run). Only a collection that reduces memory returns the pool. So once no
 * request has come or been in flight for a while after some activity, and the process has grown
 * since the last time, one such collection is run: it held the main thread 0.3–1.9 s at load 23 on
 * 2 cores (it is several full collections), spent while nobody is waiting; under steady traffic the
 * server is never quiet and V8 manages as usual.
 *
 * Plain TypeScript that Node runs without a build (scripts/start.mjs imports it).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

export interface TrimPolicy {
  /** Quiet for this long (no request begun, none in flight but live streams) before memory is given back. */
  quietMs: number;
  /** Only when the process has grown by this much since memory was last given back (bytes of RSS): a collection that gives nothing back is a cost for nothing. */
  growthBytes: number;
  /** At most one collection in this interval, so that a request every few seconds cannot turn it into a per-request cost. */
  minIntervalMs: number;
}

export const IDLE_TRIM: TrimPolicy = { quietMs: 10_000, minIntervalMs: 60_000, growthBytes: 32 * 1024 * 1024 };

export interface TrimState {
  /** When the last request began (ms, a monotonic clock). */
  lastRequestAt: number;
  /** When memory was last given back, or null before the first time. */
  lastTrimAt: number | null;
  /** Anything allocated since then: a request, or the start itself (seed, migrations, index). */
  activity: boolean;
  /** Requests being answered, live streams not counted (the first /readyz waits for the whole start: seed, migrations, index). */
  inFlight: number;
  /** The process's RSS just after memory was last given back (bytes), or null before the first time. */
  rssAfterTrim: number | null;
}

/** Whether to give memory back now. */
export function trimDue(state: TrimState, now: number, rss: number, policy: TrimPolicy = IDLE_TRIM): boolean {
  if (!state.activity || state.inFlight > 0) return false;
  if (now - state.lastRequestAt < policy.quietMs) return false;
  if (state.lastTrimAt === null) return true;
  if (now - state.lastTrimAt < policy.minIntervalMs) return false;
  return state.rssAfterTrim === null || rss - state.rssAfterTrim >= policy.growthBytes;
}

type GcFunction = (options?: { type?: 'major' | 'minor'; flavor?: 'regular' | 'last-resort' }) => void;
let collector: GcFunction | null | undefined;

/**
 * V8's `gc` function, taken from a fresh context without putting `gc` on this one's global object
 * (the flag is set back at once, so no later context gets it either).
 */
function gcFunction(): GcFunction | null {
  if (collector !== undefined) return collector;
  const given = (globalThis as { gc?: GcFunction }).gc;
  if (typeof given === 'function') return (collector = given);
  try {
    v8.setFlagsFromString('--expose-gc');
    collector = vm.runInNewContext('gc') as GcFunction;
  } catch {
    collector = null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

/**
 * One collection that reduces memory ("last resort": the heap compacted and its pooled pages
 * returned; they are unmapped by V8's background threads within a moment). Returns how long the
 * main thread was held, in ms, or null when the runtime does not allow it.
 */
export function giveMemoryBack(): number | null {
  const gc = gcFunction();
  if (!gc) return null;
  const started = performance.now();
  gc({ type: 'major', flavor: 'last-resort' });
  return performance.now() - started;
}

/**
 * Watches the server's requests and gives memory back once it has been quiet (IDLE_TRIM). The
 * timer does not keep the process alive.
 */
export function trimWhenIdle(server: Server, policy: TrimPolicy = IDLE_TRIM, log?: (fields: Record<string, unknown>) => void): () => void {
  const state: TrimState = { lastRequestAt: performance.now(), lastTrimAt: null, activity: true, inFlight: 0, rssAfterTrim: null };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    state.lastRequestAt = performance.now();
    state.activity = true;
    // A live stream stays open for as long as the page does: it is not work in flight.
    if (req.headers.accept?.includes('text/event-stream')) return;
    state.inFlight++;
    res.once('close', () => {
      state.inFlight--;
      state.lastRequestAt = performance.now();
    });
  };
  server.on('request', onRequest);
  const timer = setInterval(
    () => {
      const now = performance.now();
      if (!trimDue(state, now, process.memoryUsage.rss(), policy)) return;
      const heapBefore = process.memoryUsage().heapTotal;
      const ms = giveMemoryBack();
      state.lastTrimAt = performance.now();
      state.activity = false;
      // Measured once V8's threads have unmapped the pages.
      setTimeout(() => (state.rssAfterTrim = process.memoryUsage.rss()), 1000).unref();
      if (ms === null) {
        clearInterval(timer);
        return;
      }
      log?.({ msg: 'memory_given_back', ms: Math.round(ms), heapMB: [heapBefore, process.memoryUsage().heapTotal].map((b) => Math.round(b / 1048576)) });
    },
    Math.max(1000, Math.floor(policy.quietMs / 4)),
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', onRequest);
  };
}
