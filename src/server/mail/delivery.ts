/**
 * Delivery of the outbox through SMTP, safe with several instances on one database:
 *
 * - a worker **claims** due rows for a lease in one statement (`for update skip locked`, then
 *   `claimed_until` set and `attempts` counted), so two workers never hold the same row, and a
 *   worker that dies mid-send leaves the row to be claimed again when its lease runs out;
 * - a sent row gets `sent_at`; a failure is written to the row (`error`) and the log, and retried
 *   with exponential backoff (`next_attempt_at`); a permanent refusal (SMTP 5xx) or the last
 *   attempt gives up (`failed_at`, log `mail_gave_up`).
 *
 * Each mail carries a Message-ID made from its row, so that even the one case a lease cannot rule
 * out (a worker killed after the server accepted the mail, before `sent_at` was written) is the
 * same message twice, which receiving servers may recognise, never two different ones.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { SendMailOptions } from 'nodemailer';
import type { Db } from '../db/types';
import { mailOutbox } from '../db/schema';
import { maskAddress } from './outbox';
import { log } from '../log';

/** What sends one message: nodemailer's SMTP transport in the app, the same in tests. */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
}

export const DELIVERY = {
  /** Rows claimed at a time. */
  batch: 10,
  /** How long a claim holds; longer than the SMTP timeouts below, so a live worker never loses it. */
  leaseMs: 5 * 60_000,
  maxAttempts: 8,
  /** Backoff: 30 s, 1 min, 2 min … at most an hour (about an hour and a half over 8 attempts). */
  firstRetryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  /** How often an idle worker looks for due rows (other instances' mails, retries). */
  pollMs: 5_000,
  /** A mail still unsent a day after it was written is not sent at all: its links and news are stale. */
  maxAgeMs: 24 * 60 * 60_000,
} as const;

/** The wait before the attempt after attempt `n` (1-based). */
export const retryDelay = (attempt: number) => Math.min(DELIVERY.firstRetryMs * 2 ** (attempt - 1), DELIVERY.maxRetryMs);

type Row = typeof mailOutbox.$inferSelect;

/** Claims up to `batch` due rows for this worker, until `now + leaseMs`. */
export async function claimDueMail(db: Db, now: Date, batch: number = DELIVERY.batch): Promise<Row[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.sentAt),
        isNull(mailOutbox.failedAt),
        lte(mailOutbox.nextAttemptAt, now),
        gt(mailOutbox.createdAt, new Date(now.getTime() - DELIVERY.maxAgeMs)),
        or(isNull(mailOutbox.claimedUntil), lte(mailOutbox.claimedUntil, now)),
      ),
    )
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(batch)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ claimedUntil: new Date(now.getTime() + DELIVERY.leaseMs), attempts: sql`${mailOutbox.attempts} + 1` })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

/** The filename and type of a calendar file; its METHOD goes in the type too, as iTIP asks (RFC 6047). */
function calendarAttachment(content: string) {
  const method = content.match(/^METHOD:([A-Z]+)\r?$/m)?.[1] ?? 'PUBLISH';
  return { filename: 'invite.ics', content, contentType: `text/calendar; charset=utf-8; method=${method}` };
}

/** The message as it goes out: plain text and HTML (and a calendar file), headers in the diner's language. */
export function mimeMessage(row: Row, from: string): SendMailOptions {
  return {
    from,
    to: row.toAddress,
    subject: row.subject,
    text: row.bodyText,
    html: row.bodyHtml || undefined,
    ...(row.calendar ? { attachments: [calendarAttachment(row.calendar)] } : {}),
    date: row.createdAt,
    messageId: `<outbox-${row.id}.${row.createdAt.getTime().toString(36)}@${from.match(/@([^>\s]+)/)?.[1] ?? 'sugu.jp'}>`,
    headers: { 'Content-Language': row.locale },
  };
}

/** An SMTP answer 5xx is final: trying again gets the same refusal. */
const permanent = (error: unknown) => Number((error as { responseCode?: unknown })?.responseCode) >= 500;

export interface DeliveryRun {
  sent: number;
  failed: number;
}

/**
 * Claims the rows due at `now` and sends them, one at a time. Each outcome is written only while
 * this worker still holds the claim (the attempt count it claimed), so a late answer after the
 * lease ran out and another worker took the row changes nothing.
 */
export async function deliverDueMail(db: Db, transport: MailTransport, opts: { now?: Date; from: string; batch?: number }): Promise<DeliveryRun> {
  const now = opts.now ?? new Date();
  const rows = await claimDueMail(db, now, opts.batch);
  const run: DeliveryRun = { sent: 0, failed: 0 };
  for (const row of rows) {
    const mine = and(eq(mailOutbox.id, row.id), eq(mailOutbox.attempts, row.attempts));
    try {
      await transport.sendMail(mimeMessage(row, opts.from));
      await db.update(mailOutbox).set({ sentAt: new Date(), claimedUntil: null, error: null }).where(mine);
      run.sent++;
      log('info', 'mail_sent', { id: row.id, kind: row.kind, to: maskAddress(row.toAddress), attempt: row.attempts });
    } catch (error) {
      run.failed++;
      const message = String((error as Error)?.message ?? error).slice(0, 500);
      const giveUp = permanent(error) || row.attempts >= DELIVERY.maxAttempts;
      const retryAt = new Date(now.getTime() + retryDelay(row.attempts));
      await db
        .update(mailOutbox)
        .set(giveUp ? { failedAt: new Date(), claimedUntil: null, error: message } : { nextAttemptAt: retryAt, claimedUntil: null, error: message })
        .where(mine);
      log(giveUp ? 'error' : 'warn', giveUp ? 'mail_gave_up' : 'mail_failed', {
        id: row.id,
        kind: row.kind,
        to: maskAddress(row.toAddress),
        attempt: row.attempts,
        error: message,
        ...(giveUp ? {} : { retry_at: retryAt.toISOString() }),
      });
    }
  }
  return run;
}
