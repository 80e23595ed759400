/**
 * The outbox: every mail is a row of `mail_outbox` first (the record, what operators and tests
 * read) and a line in the server log. src/server/mail/delivery.ts sends the rows through SMTP
 * when SMTP_URL is set; without it they stay in the table.
 */
import type { Db, Q } from '../db/types';
import { mailOutbox } from '../db/schema';
import { mailHtml } from './html';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** The plain-text part; the HTML part is made from it (links become links). */
  text: string;
  /** The language the mail is written in: the diner's. */
  locale: string;
  /** What the mail is for (`booking_created`, `password_reset`, …). */
  kind: string;
}

type QueuedHook = (db: Db) => void;
const queuedHooks = new Set<QueuedHook>();

/** Runs after each mail is queued on this instance (the delivery worker sends at once). */
export function onMailQueued(hook: QueuedHook): () => void {
  queuedHooks.add(hook);
  return () => queuedHooks.delete(hook);
}

/** Says that mail was queued on `db`: called by queueMail, and after a transaction that queued some. */
export function mailQueued(db: Db): void {
  for (const hook of queuedHooks) hook(db);
}

/** Masks an address for the log: `h…@example.jp`. */
export const maskAddress = (to: string) => to.replace(/^(.).*(@.*)$/, '$1…$2');

/**
 * Queues a mail: after the work it reports has committed, or inside that work's transaction (then
 * call mailQueued(db) once it has committed). Delivery, with its retries, happens apart.
 */
export async function queueMail(q: Q, mail: OutgoingMail): Promise<number> {
  return (await queueMails(q, [mail]))[0]!;
}

/** Rows per insert: well under PostgreSQL's 65,535 parameters for eight columns. */
const BATCH = 1000;

/** Queues many mails in a few statements (as queueMail does one); returns their ids. */
export async function queueMails(q: Q, mails: readonly OutgoingMail[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < mails.length; i += BATCH) {
    const chunk = mails.slice(i, i + BATCH);
    // Due by this process's clock (whole milliseconds, as the worker asks with), not the
    // database's microseconds, so the worker kicked below finds them at once.
    const due = new Date();
    const rows = await q
      .insert(mailOutbox)
      .values(chunk.map((mail) => ({ toAddress: mail.to, subject: mail.subject, bodyText: mail.text, bodyHtml: mailHtml(mail), locale: mail.locale, kind: mail.kind, nextAttemptAt: due })))
      .returning({ id: mailOutbox.id, kind: mailOutbox.kind, to: mailOutbox.toAddress });
    for (const row of rows) {
      ids.push(row.id);
      // The log names the mail but not its body: bodies carry one-time links.
      console.log(JSON.stringify({ level: 'info', msg: 'mail_queued', id: row.id, kind: row.kind, to: maskAddress(row.to) }));
    }
  }
  // A transaction's rows are not visible to the worker before it commits.
  if (ids.length && !('rollback' in q)) mailQueued(q);
  return ids;
}
