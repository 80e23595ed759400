/**
 * A real SMTP server in the test process (npm `smtp-server`), whose received messages are parsed
 * with a real MIME parser (`mailparser`): what a mail client would show, plus the raw source.
 *
 *   const smtp = await startSmtp();
 *   … SMTP_URL = smtp.url …
 *   const [mail] = await smtp.waitFor(1);
 *   expect(mail.subject).toBe('【すぐ予約】…');
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  subject: string;
  to: string;
  messageId: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Resolves once `n` messages (to `to`, when given) have arrived in all (those messages), rejects after `ms`. */
  waitFor(n: number, ms?: number, to?: string): Promise<ReceivedMail[]>;
  /** The next `count` messages are refused with `code` (4xx: try later, 5xx: never). */
  refuseNext(count: number, code: number): void;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refuse = { count: 0, code: 451 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse.count > 0) {
          refuse.count--;
          return callback(Object.assign(new Error(refuse.code >= 500 ? 'mailbox unavailable' : 'try again later'), { responseCode: refuse.code }));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              raw,
              parsed,
              subject: parsed.subject ?? '',
              to: session.envelope.rcptTo.map((r) => r.address).join(','),
              messageId: parsed.messageId ?? '',
            });
            for (const wake of waiters) wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext(count, code) {
      refuse = { count, code };
    },
    waitFor(n, ms = 60_000, to) {
      const mails = () => (to === undefined ? received : received.filter((m) => m.to === to));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`${mails().length} of ${n} mails arrived`))), ms);
        const check = () => {
          if (mails().length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mails().slice(0, n));
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
