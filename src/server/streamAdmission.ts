/**
 * Admission for live-availability streams (GET /api/availability/stream). An open stream holds a
 * connection, a file descriptor and some memory for as long as its page is open, so without a cap
 * one client could open thousands and take the process's open files — and with them every other
 * request — away from everyone. Per process (streams are a process's own resource):
 *
 * - at most STREAMS_PER_CLIENT streams per client address (default 10): beyond, 429;
 * - at most STREAMS_TOTAL streams in all (default a quarter of the open-file limit, at most 2,000):
 *   beyond, 503, leaving most files for pages, the API and the database;
 * - every stream ends after STREAM_MAX_SECONDS (default 30 min, ±10 % so reconnects spread out);
 *   EventSource reconnects by itself and resumes with Last-Event-ID. This also bounds what a client
 *   that stopped reading can pin down.
 *
 * Refusals carry Retry-After; the browser's client (src/state/liveAvailability.ts) backs off.
 */
import fs from 'node:fs';
import { config } from './config';
import { ApiError } from './http/api';
import { addressGroup } from './http/client';

/** Seconds a client over its own cap is asked to wait: its other streams are still open. */
export const RETRY_PER_CLIENT_S = 60;
/** Seconds to wait when the process is full: streams end and free up all the time. */
export const RETRY_FULL_S = 15;
const TOTAL_CEILING = 2_000;

/**
 * A quarter of the soft open-file limit (Node raises it to the hard limit at start), at most 2,000.
 * @example defaultStreamTotal('Max open files            20000                20000                files') // 2000
 */
export function defaultStreamTotal(limits = readLimits()): number {
  const soft = limits?.match(/^Max open files\s+(\d+|unlimited)/m)?.[1];
  const files = soft === undefined ? 4 * TOTAL_CEILING : soft === 'unlimited' ? Infinity : Number(soft);
  return Math.max(1, Math.min(TOTAL_CEILING, Math.floor(files / 4)));
}

function readLimits(): string | undefined {
  try {
    return fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined; // not Linux: the ceiling applies
  }
}

const perClient = new Map<string, number>();
let total = 0;
let totalCap: number | undefined;

/** Open streams in this process, all and for one client (tests, logs). */
export function openStreams(address?: string): number {
  return address === undefined ? total : (perClient.get(addressGroup(address)) ?? 0);
}

export interface Ticket {
  release(): void;
}

/** Takes a place for a stream of `address`, or throws the 429/503 to answer. */
export function admitStream(client: string): Ticket {
  // Counted by address group (an IPv6 client owns its /64), as every per-address limit.
  const address = addressGroup(client);
  const c = config();
  totalCap ??= c.STREAMS_TOTAL ?? defaultStreamTotal();
  if ((perClient.get(address) ?? 0) >= c.STREAMS_PER_CLIENT) {
    throw new ApiError(429, 'too_many_streams', 'live.tooManyStreams', { headers: { 'retry-after': String(RETRY_PER_CLIENT_S) } });
  }
  if (total >= totalCap) throw new ApiError(503, 'streams_full', 'live.streamsFull', { headers: { 'retry-after': String(RETRY_FULL_S) } });
  perClient.set(address, (perClient.get(address) ?? 0) + 1);
  total++;
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      total--;
      const left = (perClient.get(address) ?? 1) - 1;
      if (left > 0) perClient.set(address, left);
      else perClient.delete(address);
    },
  };
}

/**
 * The stream as the client gets it: the same bytes, ended after its lifetime, and its place given
 * back however it ends (the client leaves, the server ends it, shutdown).
 */
export function holdStream(
  body: ReadableStream<Uint8Array>,
  ticket: Ticket,
  lifetimeMs = config().STREAM_MAX_SECONDS * 1000 * (0.9 + Math.random() * 0.2),
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    ended = true;
    clearTimeout(timer);
    ticket.release();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        if (ended) return;
        end();
        controller.close();
        void reader.cancel().catch(() => {});
      }, lifetimeMs);
      timer.unref();
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (ended) return;
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        if (ended) return;
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
