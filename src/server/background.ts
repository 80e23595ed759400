/**
 * Work a server process does besides answering requests, started once with the first request
 * (scripts/start.mjs asks /readyz as soon as it listens): outbox delivery through SMTP.
 */
import { startMailDelivery } from './mail/worker';

let started = false;

export function startBackgroundWork(): void {
  if (started) return;
  started = true;
  startMailDelivery();
}
