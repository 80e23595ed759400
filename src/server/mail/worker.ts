/**
 * The delivery worker of one process: sends what this instance queues at once, and looks for due
 * rows every few seconds (retries, and mail queued by instances without SMTP or that stopped).
 * Runs only when SMTP_URL is set; without it mail stays in the outbox and the log.
 */
import { config } from '../config';
import { getDbHandle } from '../db/startup';
import type { Db } from '../db/types';
import { onShutdown } from '../shutdown';
import { DELIVERY, deliverDueMail, type MailTransport } from './delivery';
import { onMailQueued } from './outbox';
import { createOutboxWorker, type OutboxWorker } from '../outboxWorker';
import { log } from '../log';

export type MailWorker = OutboxWorker;

/** A worker over `db`: one run at a time, a new run right after when kicked meanwhile. */
export function createMailWorker(db: Db, transport: MailTransport, from: string, pollMs: number = DELIVERY.pollMs): MailWorker {
  return createOutboxWorker({
    db,
    pollMs,
    onQueued: onMailQueued,
    failure: 'mail_delivery_failed',
    async runBatch() {
      const run = await deliverDueMail(db, transport, { from });
      // A full batch means more may be due.
      return run.sent + run.failed >= DELIVERY.batch;
    },
  });
}

const state = ((globalThis as Record<string, unknown>).__suguMailWorker ??= {}) as { started?: boolean };

/** Starts this process's worker on the app's database when SMTP_URL is set (once; later calls do nothing). */
export function startMailDelivery(): void {
  const { SMTP_URL, MAIL_FROM } = config();
  if (!SMTP_URL || state.started) return;
  state.started = true;
  void (async () => {
    const nodemailer = await import('nodemailer');
    // Timeouts well inside the claim's lease (DELIVERY.leaseMs).
    const transport = nodemailer.createTransport({ url: SMTP_URL, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    const { db } = await getDbHandle();
    const worker = createMailWorker(db, transport, MAIL_FROM);
    onShutdown('stop', async () => {
      await worker.stop();
      transport.close();
    });
  })().catch((error: unknown) => {
    state.started = false;
    log('error', 'mail_delivery_failed', { error: String((error as Error)?.message ?? error) });
  });
}
