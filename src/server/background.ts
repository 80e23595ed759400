/**
 * Work a server process does besides answering requests, started once with the first request
 * (scripts/start.mjs asks /readyz as soon as it listens): outbox delivery through SMTP, Web Push delivery, the
 * day-of reminders, the watches (空席通知) each instance matches changes against, the automatic release of overdue tables, the expiry of unconfirmed 順番待ち calls and of watch holds, and forgetting expired Idempotency-Keys. Every instance runs them; the database decides which one does each piece.
 */
import { getDbHandle } from './db/startup';
import type { Db } from './db/types';
import { onShutdown } from './shutdown';
import { startMailDelivery } from './mail/worker';
import { startPushDelivery } from './push/worker';
import { sendDueReminders } from './bookings/reminders';
import { reloadWatches } from './watches/matcher';
import { pruneWatches } from './watches/notify';
import { listenForWatches } from './watches/feed';
import { sweepIdempotencyKeys } from './idempotency';
import { releaseOverdue } from './staff/autoRelease';
import { expireOverdueCalls } from './queue/staff';
import { expireHolds } from './watches/holds';
import { log } from './log';

const REMINDER_POLL_MS = 60_000;
/** Stores that release an overdue party's table by themselves do it within this long of the grace period's end. */
const AUTO_RELEASE_POLL_MS = 60_000;
/** A 順番待ち call left unconfirmed expires within this long of its claim deadline, so the next party can be called. */
const QUEUE_EXPIRY_POLL_MS = 15_000;
/** A watch's hold past its deadline is marked expired (and offered to the next watcher) within this long. */
const HOLD_EXPIRY_POLL_MS = 5_000;
/** Watches made, confirmed or cancelled through other instances while this one's LISTEN was down are known here this soon. */
const WATCH_RELOAD_MS = 30_000;
const WATCH_PRUNE_MS = 60 * 60_000;
/** Answers kept for Idempotency-Keys older than a day are deleted this often. */
const IDEMPOTENCY_SWEEP_MS = 60 * 60_000;

let started = false;

export function startBackgroundWork(): void {
  if (started) return;
  started = true;
  startMailDelivery();
  startPushDelivery();
  every(REMINDER_POLL_MS, 'reminders_failed', sendDueReminders);
  every(AUTO_RELEASE_POLL_MS, 'auto_release_failed', (db) => releaseOverdue(db));
  every(QUEUE_EXPIRY_POLL_MS, 'queue_expiry_failed', (db) => expireOverdueCalls(db));
  every(HOLD_EXPIRY_POLL_MS, 'hold_expiry_failed', (db) => expireHolds(db));
  every(WATCH_RELOAD_MS, 'watches_reload_failed', reloadWatches);
  every(WATCH_PRUNE_MS, 'watches_prune_failed', pruneWatches);
  every(IDEMPOTENCY_SWEEP_MS, 'idempotency_sweep_failed', (db) => sweepIdempotencyKeys(db));
  listenForWatches().catch((error: unknown) => log('error', 'watches_listen_failed', { error: String((error as Error)?.message ?? error) }));
}

/** Runs `job` on the app's database every `ms` (never two runs at once), until the process stops. */
function every(ms: number, failure: string, job: (db: Db) => Promise<unknown>): void {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= getDbHandle()
      .then((h) => job(h.db))
      .then(
        () => undefined,
        (error: unknown) => log('error', failure, { error: String((error as Error)?.message ?? error) }),
      )
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, ms);
  timer.unref();
  tick();
  onShutdown('stop', async () => {
    clearInterval(timer);
    await running;
  });
}
