/**
 * The loop both outboxes (mail, Web Push) are sent by: one run at a time, a new run right after
 * when kicked meanwhile or when a run found a full batch (more may be due), a poll for what other
 * instances queued or what waits for a retry, and a stop that waits for the run in progress.
 */
import type { Db } from './db/types';
import { log } from './log';

export interface OutboxWorker {
  /** Look for due rows now (coalesced with a run in progress). */
  kick(): void;
  /** Stops polling and waits for the run in progress. */
  stop(): Promise<void>;
}

export function createOutboxWorker(opts: {
  db: Db;
  /** Sends one batch; true when it was full. */
  runBatch: () => Promise<boolean>;
  pollMs: number;
  /** Subscribes to "queued on this database"; returns the unsubscribe. */
  onQueued: (listener: (queuedOn: Db) => void) => () => void;
  /** The log line's `msg` when a run fails. */
  failure: string;
}): OutboxWorker {
  let current: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const runOnce = async () => {
    do {
      again = false;
      try {
        if (await opts.runBatch()) again = true;
      } catch (error) {
        log('error', opts.failure, { error: String((error as Error)?.message ?? error) });
      }
    } while (again && !stopped);
    current = undefined;
  };
  const kick = () => {
    if (stopped) return;
    if (current) again = true;
    else current = runOnce();
  };
  const timer = setInterval(kick, opts.pollMs);
  timer.unref();
  const unhook = opts.onQueued((queuedOn) => {
    if (queuedOn === opts.db) kick();
  });
  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      unhook();
      await current;
    },
  };
}
