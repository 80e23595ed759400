/**
 * Work a server process does besides answering requests, started once with the first request
 * (scripts/start.mjs asks /readyz as soon as it listens): outbox delivery through SMTP, and the
 * day-of reminders. Every instance runs them; the database decides which one does each piece.
 */
import { getDbHandle } from './db/startup';
import type { Db } from './db/types';
import { onShutdown } from './shutdown';
import { startMailDelivery } from './mail/worker';
import { sendDueReminders } from './bookings/reminders';

const REMINDER_POLL_MS = 60_000;

let started = false;

export function startBackgroundWork(): void {
  if (started) return;
  started = true;
  startMailDelivery();
  every(REMINDER_POLL_MS, 'reminders_failed', sendDueReminders);
}

/** Runs `job` on the app's database every `ms` (never two runs at once), until the process stops. */
function every(ms: number, failure: string, job: (db: Db) => Promise<unknown>): void {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= getDbHandle()
      .then((h) => job(h.db))
      .then(
        () => undefined,
        (error: unknown) => console.error(JSON.stringify({ level: 'error', msg: failure, error: String((error as Error)?.message ?? error) })),
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
