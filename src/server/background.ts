/**
 * Work a server process does besides answering requests, started with the app (src/server/app.ts)
 * and stopped with it: outbox delivery through SMTP, Web Push delivery, the
 * day-of reminders, the watches (空席通知) each instance matches changes against, the automatic release of overdue tables, the expiry of unconfirmed 順番待ち calls and of watch holds, and forgetting expired Idempotency-Keys. Every instance runs them; the database decides which one does each piece.
 */
import { getDbHandle } from './db/startup';
import type { Db } from './db/types';
import type { Config } from './config';
import type { Jobs } from './jobs';
import { startAvailabilityFeed, stopAvailabilityFeed } from './events';
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

/**
 * Registers this process's background work on `jobs` (src/server/jobs.ts), which stops it. Each
 * periodic job asks for the app's database on every run, so a database that was away at start is
 * used as soon as it answers.
 */
export function startBackgroundWork(jobs: Jobs, settings: Config): void {
  const every = (name: string, ms: number, failure: string, job: (db: Db) => Promise<unknown>) =>
    jobs.every(name, ms, failure, async () => job((await getDbHandle()).db));
  jobs.start('mail delivery', 'mail_delivery_failed', () => startMailDelivery(settings));
  jobs.start('push delivery', 'push_delivery_failed', () => startPushDelivery());
  // The LISTEN connection that hears other instances' changes, and the pruning of old change rows.
  // A failed start is logged by the feed and tried again by the next live stream; its stop is the one at shutdown.
  jobs.start('availability feed', 'availability_feed_failed', async () => {
    await startAvailabilityFeed().catch(() => {});
    return stopAvailabilityFeed;
  });
  every('reminders', REMINDER_POLL_MS, 'reminders_failed', (db) => sendDueReminders(db));
  every('auto release', AUTO_RELEASE_POLL_MS, 'auto_release_failed', (db) => releaseOverdue(db));
  every('queue expiry', QUEUE_EXPIRY_POLL_MS, 'queue_expiry_failed', (db) => expireOverdueCalls(db));
  every('hold expiry', HOLD_EXPIRY_POLL_MS, 'hold_expiry_failed', (db) => expireHolds(db));
  every('watch reload', WATCH_RELOAD_MS, 'watches_reload_failed', reloadWatches);
  every('watch prune', WATCH_PRUNE_MS, 'watches_prune_failed', (db) => pruneWatches(db));
  every('idempotency sweep', IDEMPOTENCY_SWEEP_MS, 'idempotency_sweep_failed', (db) => sweepIdempotencyKeys(db));
  jobs.start('watch listen', 'watches_listen_failed', () => listenForWatches());
}
