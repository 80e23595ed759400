/**
 * Live free-table counts pushed by the server (GET /api/availability/stream, Server-Sent Events).
 *
 * Islands read `$liveAvailability` with `useStore` and call `watchLiveAvailability(storeIds, party)`
 * for the stores on screen (in an effect; call the returned function to stop). Every watcher of
 * one party shares one EventSource over the union of their stores (at most 50 per connection), and
 * EventSource reconnects by itself, resuming with Last-Event-ID. When the server refuses a stream
 * (429: too many from this address; 503: full or shutting down) EventSource gives up for good, so
 * the connection is tried again later, twice as late each time (5 s up to 5 min, with jitter so
 * that many pages do not come back at once). Without EventSource nothing happens: the page shows
 * what the server rendered, and a reload refreshes it.
 *
 * @example
 *   useEffect(() => watchLiveAvailability([store.id], party), [store.id, party]);
 *   const live = useStore($liveAvailability)[liveKey(store.id, party)];
 */
import { atom, map } from 'nanostores';
import { DEFAULT_PARTY, STREAM_STORES_MAX } from '../lib/contract/limits';
import type { LiveAvailability } from '../lib/contract/live';

export type { LiveAvailability };

/** Latest state per store and party, keyed by `liveKey(storeId, party)`. */
export const $liveAvailability = map<Record<string, LiveAvailability>>({});

/** 'unsupported' when the browser has no EventSource (the page then stays as rendered). */
export const $liveStatus = atom<'idle' | 'connecting' | 'open' | 'unsupported'>('idle');

export const liveKey = (storeId: number, party: number) => `${party}:${storeId}`;

const STREAM_PATH = '/api/availability/stream';
/** Wait after the first refusal; doubled after each further one, up to the maximum. */
export const BACKOFF_FIRST_MS = 5_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** One stream of counts, opened again after a refusal; `close` ends it for good. */
interface LiveConnection {
  readonly open: boolean;
  close(): void;
}

/** Watch counts per party and store. */
const watchers = new Map<number, Map<number, number>>();
/** Open connections per party, with the store list each was opened for. */
const sources = new Map<number, { key: string; list: LiveConnection[] }>();
let pending = false;

/** Subscribes to live counts for these stores; returns the function that unsubscribes. */
export function watchLiveAvailability(storeIds: readonly number[], party = DEFAULT_PARTY): () => void {
  if (typeof EventSource === 'undefined') {
    $liveStatus.set('unsupported');
    return () => {};
  }
  const ids = [...new Set(storeIds.filter((id) => Number.isInteger(id) && id > 0))];
  let counts = watchers.get(party);
  if (!counts) watchers.set(party, (counts = new Map()));
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  reconcileSoon();
  let active = true;
  return () => {
    if (!active) return;
    active = false;
    const c = watchers.get(party);
    if (!c) return;
    for (const id of ids) {
      const n = (c.get(id) ?? 1) - 1;
      if (n > 0) c.set(id, n);
      else c.delete(id);
    }
    if (c.size === 0) watchers.delete(party);
    reconcileSoon();
  };
}

// Islands mount one after another; open the connections once they have all said what they watch.
function reconcileSoon() {
  if (pending) return;
  pending = true;
  queueMicrotask(() => {
    pending = false;
    reconcile();
  });
}

function reconcile() {
  for (const [party, open] of sources) {
    if (!watchers.has(party)) {
      for (const s of open.list) s.close();
      sources.delete(party);
    }
  }
  for (const [party, counts] of watchers) {
    const ids = [...counts.keys()].sort((a, b) => a - b);
    const key = ids.join(',');
    const open = sources.get(party);
    if (open?.key === key) continue;
    for (const s of open?.list ?? []) s.close();
    const list: LiveConnection[] = [];
    for (let i = 0; i < ids.length; i += STREAM_STORES_MAX) list.push(connect(ids.slice(i, i + STREAM_STORES_MAX), party));
    sources.set(party, { key, list });
  }
  updateStatus();
}

function connect(ids: number[], party: number): LiveConnection {
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let refusals = 0;
  let closed = false;
  const start = () => {
    const s = (source = new EventSource(`${STREAM_PATH}?stores=${ids.join(',')}&party=${party}`));
    s.addEventListener('availability', (event) => {
      try {
        const data = JSON.parse((event as MessageEvent<string>).data) as LiveAvailability;
        $liveAvailability.setKey(liveKey(data.store_id, party), data);
      } catch {
        /* a malformed message changes nothing */
      }
    });
    s.addEventListener('open', () => {
      refusals = 0;
      updateStatus();
    });
    s.addEventListener('error', () => {
      // A dropped stream is retried by EventSource itself (after the server's `retry:`); an answer
      // other than 200 closes it for good: come back later, later each time.
      if (s.readyState === EventSource.CLOSED && !closed) {
        const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** refusals++);
        retry = setTimeout(start, wait * (0.5 + Math.random()));
      }
      updateStatus();
    });
  };
  start();
  return {
    get open() {
      return source?.readyState === EventSource.OPEN;
    },
    close() {
      closed = true;
      clearTimeout(retry);
      source?.close();
    },
  };
}

function updateStatus() {
  const all = [...sources.values()].flatMap((s) => s.list);
  if (!all.length) $liveStatus.set('idle');
  else $liveStatus.set(all.every((s) => s.open) ? 'open' : 'connecting');
}
