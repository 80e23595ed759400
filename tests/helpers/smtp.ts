/**
 * A real SMTP server in the test process (npm `smtp-server`), whose received messages are parsed
 * with a real MIME parser (`mailparser`): what a mail client would show, plus the raw source.
 *
 *   const smtp = await startSmtp();
 *   … SMTP_URL = smtp.url …
 *   const [mail] = await smtp.waitFor(1);
 *   expect(mail.subject).toBe('【すぐ予約】…');
 */
import fs from 'node:fs';
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

/** One line of a mail log (startSmtp's `logTo`): what a test reads of a mail another process received. */
export interface LoggedMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML part as sent (empty when there is none). */
  html: string;
  /** The text/calendar files sent with it: their Content-Type (with its method) and text. */
  calendars: { contentType: string; content: string }[];
}

/**
 * A real SMTP server in this process. With `logTo`, every mail it receives is also appended to that
 * file as a JSON line (LoggedMail), for test files in other processes (the run's shared servers).
 */
export async function startSmtp(options: { logTo?: string } = {}): Promise<TestSmtp> {
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
            if (options.logTo) {
              // The type's method (REQUEST, CANCEL) is what a mail app acts on: kept with the file.
              const calendars = parsed.attachments
                .filter((a) => a.contentType === 'text/calendar')
                .map((a) => {
                  const method = (a.headers.get('content-type') as { params?: Record<string, string> } | undefined)?.params?.method;
                  return { contentType: method ? `${a.contentType}; method=${method}` : a.contentType, content: a.content.toString('utf8') };
                });
              const line: LoggedMail = {
                to: received.at(-1)!.to,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                calendars,
              };
              fs.appendFileSync(options.logTo, `${JSON.stringify(line)}\n`);
            }
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
