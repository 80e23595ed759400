import { eq } from 'drizzle-orm';
import type { Db } from './db/types';
import { mailOutbox } from './db/schema';
import { config } from './config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for (`booking_confirmation`, `password_reset`, …). */
  kind: string;
}

type Transport = { sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown> };
let transport: Promise<Transport> | undefined;

function smtp(url: string): Promise<Transport> {
  transport ??= import('nodemailer').then((m) => m.createTransport(url) as unknown as Transport);
  return transport;
}

const FROM = 'すぐ予約 <no-reply@sugu.jp>';

/**
 * Hands a mail over: always to the outbox table (the record, and what tests and operators read),
 * to the server log, and through SMTP when SMTP_URL is set. Sending happens after the caller's
 * work has committed and never fails that work: a failed send is kept on the outbox row.
 */
export async function queueMail(db: Db, mail: OutgoingMail): Promise<number> {
  const [row] = await db
    .insert(mailOutbox)
    .values({ toAddress: mail.to, subject: mail.subject, bodyText: mail.text, kind: mail.kind })
    .returning({ id: mailOutbox.id });
  const id = row!.id;
  // The log names the mail but not its body: bodies carry one-time links.
  console.log(JSON.stringify({ level: 'info', msg: 'mail_queued', id, kind: mail.kind, to: mail.to.replace(/^(.).*(@.*)$/, '$1…$2') }));
  const url = config().SMTP_URL;
  if (url) {
    void smtp(url)
      .then((t) => t.sendMail({ from: FROM, to: mail.to, subject: mail.subject, text: mail.text }))
      .then(() => db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, id)))
      .catch((error: unknown) =>
        db
          .update(mailOutbox)
          .set({ error: String(error).slice(0, 500) })
          .where(eq(mailOutbox.id, id))
          .catch(() => {}),
      );
  }
  return id;
}
