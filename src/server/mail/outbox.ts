/**
 * The outbox: every mail is a row of `mail_outbox` first (the record, what operators and tests
 * read) and a line in the server log. src/server/mail/delivery.ts sends the rows through SMTP
 * when SMTP_URL is set; without it they stay in the table.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { mailOutbox, users } from '../db/schema';
import { config } from '../config';
import { hit, recipientKey } from '../http/rateLimit';
import { mailHtml } from './html';
import { log } from '../log';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** The plain-text part; the HTML part is made from it (links become links). */
  text: string;
  /** schema.org markup for the HTML part (a booking's reservation), never in the text. */
  markup?: object;
  /** An iCalendar file sent with the mail (a booking's invitation, src/server/bookings/ics.ts). */
  calendar?: string;
  /** The language the mail is written in: the diner's. */
  locale: string;
  /** What the mail is for (`booking_created`, `password_reset`, …). */
  kind: string;
  /**
   * What the mail is about (`booking:12`). With `coalesce`, mails of one kind about one thing go
   * out at most once per `coalesce` ms, the one waiting rewritten with the latest state; without
   * it, the mail replaces whatever about the same thing is still waiting (a cancellation makes a
   * pending "changed" mail moot).
   */
  about?: string;
  coalesce?: number;
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

const HOUR_MS = 60 * 60_000;

/**
 * Counts a mail against its mailbox's hourly cap (MAIL_PER_RECIPIENT, across every kind): the one
 * place that holds when a sender's own limits are walked past (many bookings' changes, reminders,
 * alerts and resets to one person). True when it may go.
 */
async function withinRecipientCap(q: Q, to: string): Promise<boolean> {
  const state = await hit(q as Db, recipientKey('mail-to', to), { max: config().MAIL_PER_RECIPIENT, windowMs: HOUR_MS });
  return state.count <= config().MAIL_PER_RECIPIENT;
}

/**
 * The only mails an address of an unverified account is sent: the ones that prove it is the owner's
 * (the verification link, a password reset link) and the note that someone signed up with it.
 */
export const MAIL_BEFORE_VERIFICATION: ReadonlySet<string> = new Set(['email_verification', 'password_reset', 'signup_attempt']);

/**
 * Whether a mail is held because its address belongs to an account that has not verified it:
 * anyone can sign up with anyone's address, so until the owner follows the link no alert,
 * reminder or booking mail goes there. Decided here, for every sender, by the address itself.
 */
async function heldForVerification(q: Q, mail: OutgoingMail): Promise<boolean> {
  if (MAIL_BEFORE_VERIFICATION.has(mail.kind)) return false;
  const [row] = await (q as Db)
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${mail.to})`, isNull(users.emailVerifiedAt)))
    .limit(1);
  return Boolean(row);
}

type Verdict = 'ok' | 'recipient_limit' | 'unverified_recipient';

/** Whether a mail may go: held for an unverified address first (not counted against the cap), then the cap. */
async function verdictOf(q: Q, mail: OutgoingMail): Promise<Verdict> {
  if (await heldForVerification(q, mail)) return 'unverified_recipient';
  return (await withinRecipientCap(q, mail.to)) ? 'ok' : 'recipient_limit';
}

const rowOf = (mail: OutgoingMail, due: Date, verdict: Verdict) => ({
  toAddress: mail.to,
  subject: mail.subject,
  bodyText: mail.text,
  bodyHtml: mailHtml(mail),
  calendar: mail.calendar ?? null,
  locale: mail.locale,
  kind: mail.kind,
  about: mail.about ?? null,
  nextAttemptAt: due,
  // A refused mail is kept as the record of what was not sent, never delivered.
  ...(verdict === 'ok' ? {} : { failedAt: due, error: verdict }),
});

const LOGGED: Record<Verdict, string> = { ok: 'mail_queued', recipient_limit: 'mail_over_recipient_limit', unverified_recipient: 'mail_held_unverified' };

function logQueued(row: { id: number; kind: string; to: string }, verdict: Verdict): void {
  // The log names the mail but not its body: bodies carry one-time links.
  log(verdict === 'ok' ? 'info' : 'warn', LOGGED[verdict], { id: row.id, kind: row.kind, to: maskAddress(row.to) });
}

/** A mail about one thing: coalesced with, or replacing, what about it is still waiting. */
async function queueAbout(q: Q, mail: OutgoingMail & { about: string }): Promise<number> {
  return (q as Db).transaction(async (tx) => {
    // One writer per subject at a time, so two changes at once cannot both start a new mail.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${mail.about}))`);
    const waiting = and(
      eq(mailOutbox.about, mail.about),
      isNull(mailOutbox.sentAt),
      isNull(mailOutbox.failedAt),
      sql`(${mailOutbox.claimedUntil} is null or ${mailOutbox.claimedUntil} < now())`,
    );
    let due = new Date();
    if (mail.coalesce) {
      const [last] = await tx
        .select({
          id: mailOutbox.id,
          nextAttemptAt: mailOutbox.nextAttemptAt,
          sentAt: mailOutbox.sentAt,
          failedAt: mailOutbox.failedAt,
          claimedUntil: mailOutbox.claimedUntil,
        })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.about, mail.about), eq(mailOutbox.kind, mail.kind)))
        .orderBy(desc(mailOutbox.id))
        .limit(1);
      if (last && !last.sentAt && !last.failedAt && (!last.claimedUntil || last.claimedUntil < due)) {
        await tx
          .update(mailOutbox)
          .set({
            toAddress: mail.to,
            subject: mail.subject,
            bodyText: mail.text,
            bodyHtml: mailHtml(mail),
            calendar: mail.calendar ?? null,
            locale: mail.locale,
          })
          .where(eq(mailOutbox.id, last.id));
        log('info', 'mail_coalesced', { id: last.id, kind: mail.kind, to: maskAddress(mail.to) });
        return last.id;
      }
      // The last one went (or is going) out: the next waits out the window from it.
      if (last) due = new Date(Math.max(due.getTime(), last.nextAttemptAt.getTime() + mail.coalesce));
    } else {
      await tx.delete(mailOutbox).where(waiting);
    }
    const verdict = await verdictOf(tx, mail);
    const [row] = await tx
      .insert(mailOutbox)
      .values(rowOf(mail, due, verdict))
      .returning({ id: mailOutbox.id, kind: mailOutbox.kind, to: mailOutbox.toAddress });
    logQueued(row!, verdict);
    return row!.id;
  });
}

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
    const rows: ReturnType<typeof rowOf>[] = [];
    const verdicts: Verdict[] = [];
    for (const mail of chunk) {
      if (mail.about) {
        ids.push(await queueAbout(q, mail as OutgoingMail & { about: string }));
        continue;
      }
      verdicts.push(await verdictOf(q, mail));
      rows.push(rowOf(mail, due, verdicts.at(-1)!));
    }
    if (!rows.length) continue;
    const inserted = await q.insert(mailOutbox).values(rows).returning({ id: mailOutbox.id, kind: mailOutbox.kind, to: mailOutbox.toAddress });
    inserted.forEach((row, n) => {
      ids.push(row.id);
      logQueued(row, verdicts[n]!);
    });
  }
  // A transaction's rows are not visible to the worker before it commits.
  if (ids.length && !('rollback' in q)) mailQueued(q);
  return ids;
}
