/**
 * The door tablet's live list: a Server-Sent Events stream of one store's bookings as they are
 * made, changed, marked or cancelled. Every change at the store is announced on the availability
 * bus (this instance's and, on PostgreSQL, the other instances' through LISTEN/NOTIFY); the stream
 * then sends each booking changed since its last message as an event `booking` (the day list's
 * JSON), each walk-in seated or freed as an event `walk_in` (the walk-in list's JSON), and a
 * change in the store's 順番待ち (a party joining, leaving, called or seated) as an event `queue`.
 * `Last-Event-ID` (the last change's time) resumes where a dropped connection left off.
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../db/types';
import { bookings, queueEntries } from '../db/schema';
import { QUEUE_ACTIVE } from '../../lib/contract/queue';
import { availabilityBus, startAvailabilityFeed, type AvailabilityChange } from '../events';
import { heartbeatMs, RETRY_MS } from '../live';
import { onShutdown } from '../shutdown';
import { bookingsWhere } from './dayBookings';
import { walkInsWhere } from './walkIns';
import { clock } from '../clock';
import { log } from '../log';

const encoder = new TextEncoder();
const open = new Set<() => void>();
onShutdown('stop', async () => {
  for (const close of [...open]) close();
});

/** A resumed stream starts after this instant (ms); anything else starts now. */
function resumeFrom(lastEventId: string | null | undefined, now: Date): Date {
  const ms = Number(lastEventId);
  return lastEventId && Number.isSafeInteger(ms) && ms > 0 && ms <= now.getTime() ? new Date(ms) : now;
}

/** The store's queue as it stands (who is in it, in which state): a change of it is a `queue` event. */
async function queueNow(db: Db, storeId: number): Promise<string> {
  const rows = await db
    .select({ id: queueEntries.id, state: queueEntries.state })
    .from(queueEntries)
    .where(and(eq(queueEntries.storeId, storeId), inArray(queueEntries.state, [...QUEUE_ACTIVE])))
    .orderBy(asc(queueEntries.id));
  return rows.map((r) => `${r.id}:${r.state}`).join(',');
}

export function openStoreStream(db: Db, storeId: number, options: { lastEventId?: string | null; signal?: AbortSignal } = {}): ReadableStream<Uint8Array> {
  let since = resumeFrom(options.lastEventId, clock.now());
  /** Sent versions (booking id → its change time), so a row is never sent twice for one change. */
  const sent = new Map<number, number>();
  let running: Promise<void> = Promise.resolve();
  let close = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      const write = (text: string) => {
        if (!ended) controller.enqueue(encoder.encode(text));
      };
      let queue: string | undefined;
      const flush = async () => {
        const seen = await queueNow(db, storeId);
        if (queue !== undefined && seen !== queue) write(`event: queue\ndata: ${JSON.stringify({ store_id: storeId })}\n\n`);
        queue = seen;
        const changed = and(eq(bookings.storeId, storeId), gt(bookings.updatedAt, since));
        const [booked, walkIns] = await Promise.all([bookingsWhere(db, changed, asc(bookings.updatedAt)), walkInsWhere(db, changed, asc(bookings.updatedAt))]);
        // One row id space (both are rows of bookings): in the order of their changes.
        const rows = [...booked.map((r) => ({ ...r, event: 'booking' })), ...walkIns.map((r) => ({ ...r, event: 'walk_in' }))].sort(
          (a, b) => a.changedAt.getTime() - b.changedAt.getTime(),
        );
        for (const { json, changedAt, event } of rows) {
          if (sent.get(json.id) === changedAt.getTime()) continue;
          sent.set(json.id, changedAt.getTime());
          if (changedAt > since) since = changedAt;
          write(`id: ${changedAt.getTime()}\nevent: ${event}\ndata: ${JSON.stringify(json)}\n\n`);
        }
      };
      // Changes are read one after another, so events keep the order of the changes.
      const onChange = (change: AvailabilityChange) => {
        if (change.storeId !== storeId) return;
        running = running.then(flush).catch((error: unknown) => log('error', 'store_stream_failed', { error: String(error) }));
      };
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs());
      close = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        availabilityBus.off('change', onChange);
        open.delete(close);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      open.add(close);
      options.signal?.addEventListener('abort', close, { once: true });
      availabilityBus.on('change', onChange);
      write(`retry: ${RETRY_MS}\n: ok\n\n`);
      // The queue as the client drew it, so its first change is told.
      running = running.then(async () => {
        queue ??= await queueNow(db, storeId);
      });
      // What changed while a resumed client was away.
      if (options.lastEventId) onChange({ id: 0, storeId });
      void startAvailabilityFeed().catch(() => {});
    },
    cancel() {
      close();
    },
  });
}
