/**
 * The delivery worker of one process: sends what this instance queues at once, and looks for due
 * rows every few seconds (retries, and mail queued by instances without SMTP or that stopped).
 * Runs only when SMTP_URL is set; without it mail stays in the outbox and the log.
 */
import type { Config } from '../config';
import { getDbHandle } from '../db/startup';
import type { Db } from '../db/types';
import { DELIVERY, deliverDueMail, type MailTransport } from './delivery';
import { onMailQueued } from './outbox';
import { createOutboxWorker, type OutboxWorker } from '../outboxWorker';

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

/**
 * Starts this process's worker on the app's database when SMTP_URL is set (src/server/background.ts):
 * answers how to stop it, or nothing without SMTP_URL.
 */
export async function startMailDelivery(settings: Config): Promise<(() => Promise<void>) | undefined> {
  const { SMTP_URL, MAIL_FROM } = settings;
  if (!SMTP_URL) return undefined;
  const nodemailer = await import('nodemailer');
  // Timeouts well inside the claim's lease (DELIVERY.leaseMs).
  const transport = nodemailer.createTransport({ url: SMTP_URL, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
  try {
    const { db } = await getDbHandle();
    const worker = createMailWorker(db, transport, MAIL_FROM);
    return async () => {
      await worker.stop();
      transport.close();
    };
  } catch (error) {
    transport.close();
    throw error;
  }
}
