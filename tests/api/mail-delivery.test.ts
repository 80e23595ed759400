/**
 * Mail that works for real, on both engines: the outbox delivered to a real SMTP server in this
 * process and read back with a real MIME parser. Japanese subjects and bodies survive the trip,
 * every mail has a plain-text and an HTML part, failures are retried with backoff and given up
 * visibly, and two workers on one database never send a mail twice. Times are a controlled clock
 * passed to the worker: no test waits for a backoff to pass.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { forEachEngine } from '../helpers/db';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { openDb } from '../../src/server/db/client';
import { mailOutbox } from '../../src/server/db/schema';
import type { Db } from '../../src/server/db/types';
import { queueMail } from '../../src/server/mail/outbox';
import { claimDueMail, deliverDueMail, DELIVERY, retryDelay, type MailTransport } from '../../src/server/mail/delivery';

const FROM = 'すぐ予約 <no-reply@sugu.jp>';
const SUBJECT = '【すぐ予約】ご予約が確定しました（焼肉 さくら 渋谷店 SG-7K3Q9P）';
const TEXT =
  'ご予約が確定しました。ご来店をお待ちしております。\n\n日時: 11月20日(金) 21:00〜23:00\n人数: 4名\n\n予約の確認・変更は次のリンクから:\nhttps://sugu.test/booking-list?from=mail&code=SG-7K3Q9P';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

forEachEngine('mail delivery', (get, engine) => {
  let db: Db;
  let smtp: TestSmtp;
  let transport: MailTransport & { close(): void };
  const logs: string[] = [];
  beforeEach(async () => {
    db = get().db;
    // Each test starts from an empty outbox: a worker takes every due row.
    await db.delete(mailOutbox);
    smtp = await startSmtp();
    transport = nodemailer.createTransport(smtp.url);
    logs.length = 0;
    // The log writes its lines to the process's streams: errors to stderr, the rest to stdout.
    vi.spyOn(process.stderr, 'write').mockImplementation((line: string | Uint8Array) => logs.push(String(line)) > 0);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    transport.close();
    await smtp.close();
  });
  const rowOf = async (id: number) => (await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
  const queue = (to: string, over: Partial<Parameters<typeof queueMail>[1]> = {}) =>
    queueMail(db, { to, subject: SUBJECT, text: TEXT, locale: 'ja', kind: 'test', ...over });

  it('a Japanese subject and body arrive intact, as plain text and HTML in the diner’s language', async () => {
    const id = await queue('hanako@example.jp');
    expect(await deliverDueMail(db, transport, { from: FROM })).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe(SUBJECT);
    expect(mail!.to).toBe('hanako@example.jp');
    // On the wire the headers are 7-bit ASCII: the subject and the sender's name are RFC 2047 words.
    const head = mail!.raw.slice(0, mail!.raw.indexOf('\r\n\r\n'));
    expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(head).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(head).toMatch(/^Content-Language: ja$/m);
    expect(mail!.parsed.from?.value[0]).toEqual({ name: 'すぐ予約', address: 'no-reply@sugu.jp' });
    expect(mail!.parsed.text?.trim()).toBe(TEXT);
    const html = String(mail!.parsed.html);
    expect(html).toContain('<html lang="ja" dir="ltr">');
    expect(html).toContain('日時: 11月20日(金) 21:00〜23:00');
    expect(html).toContain('<a href="https://sugu.test/booking-list?from=mail&amp;code=SG-7K3Q9P"');
    expect(mail!.messageId).toMatch(new RegExp(`^<outbox-${id}\\.[0-9a-z]+@sugu\\.jp>$`));
    const row = await rowOf(id);
    expect(row).toMatchObject({ attempts: 1, error: null, failedAt: null, claimedUntil: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    // Sent once: nothing is due any more.
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(new Date(), DELIVERY.leaseMs * 2) })).toEqual({ sent: 0, failed: 0 });
  });

  it('sends a calendar file with the text and HTML, its METHOD in its type, the parts unchanged', async () => {
    const ics =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:CANCEL\r\nBEGIN:VEVENT\r\nUID:booking-1@sugu.test\r\nSEQUENCE:2\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    await queue('calendar@example.jp', { calendar: ics });
    expect(await deliverDueMail(db, transport, { from: FROM })).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.raw).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(mail!.raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=CANCEL/m);
    expect(mail!.parsed.text?.trim()).toBe(TEXT);
    expect(String(mail!.parsed.html)).toContain('日時: 11月20日(金) 21:00〜23:00');
    const [file] = mail!.parsed.attachments.filter((a) => a.contentType === 'text/calendar');
    expect(file?.filename).toBe('invite.ics');
    expect(file?.content.toString('utf8')).toBe(ics);
  });

  it('an Arabic mail reads right to left', async () => {
    await queue('rtl@example.jp', { subject: 'تم تأكيد حجزك', text: 'تم تأكيد حجزك.', locale: 'ar' });
    await deliverDueMail(db, transport, { from: FROM });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe('تم تأكيد حجزك');
    expect(String(mail!.parsed.html)).toContain('<html lang="ar" dir="rtl">');
  });

  it('a refused attempt is kept on the row and in the log, and retried with backoff until it goes', async () => {
    const id = await queue('retry@example.jp');
    const t0 = new Date();
    smtp.refuseNext(2, 451);
    expect(await deliverDueMail(db, transport, { from: FROM, now: t0 })).toEqual({ sent: 0, failed: 1 });
    let row = await rowOf(id);
    expect(row).toMatchObject({ attempts: 1, sentAt: null, failedAt: null, claimedUntil: null, nextAttemptAt: at(t0, retryDelay(1)) });
    expect(row.error).toContain('451');
    const failed = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'mail_failed' && l.id === id);
    expect(failed).toMatchObject({ level: 'warn', attempt: 1, to: 'r…@example.jp', retry_at: at(t0, retryDelay(1)).toISOString() });
    expect(failed.error).toContain('451');
    // Not before its time.
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(t0, retryDelay(1) - 1000) })).toEqual({ sent: 0, failed: 0 });
    const t1 = at(t0, retryDelay(1));
    expect(await deliverDueMail(db, transport, { from: FROM, now: t1 })).toEqual({ sent: 0, failed: 1 });
    row = await rowOf(id);
    expect(row).toMatchObject({ attempts: 2, nextAttemptAt: at(t1, retryDelay(2)) });
    expect(retryDelay(2)).toBe(2 * retryDelay(1));
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(t1, retryDelay(2)) })).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe(SUBJECT);
    row = await rowOf(id);
    expect(row).toMatchObject({ attempts: 3, error: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('a permanent refusal (5xx) is given up at once; a mail that keeps failing is given up after the last attempt', async () => {
    const hard = await queue('nobody@example.jp');
    const t0 = new Date();
    smtp.refuseNext(1, 550);
    expect(await deliverDueMail(db, transport, { from: FROM, now: t0 })).toEqual({ sent: 0, failed: 1 });
    const row = await rowOf(hard);
    expect(row.failedAt).toBeInstanceOf(Date);
    expect(row.error).toContain('550');
    expect(logs.map((l) => JSON.parse(l)).find((l) => l.id === hard)).toMatchObject({ level: 'error', msg: 'mail_gave_up', attempt: 1 });

    const soft = await queue('flaky@example.jp');
    smtp.refuseNext(DELIVERY.maxAttempts, 421);
    let now = new Date();
    for (let attempt = 1; attempt <= DELIVERY.maxAttempts; attempt++) {
      expect(await deliverDueMail(db, transport, { from: FROM, now })).toEqual({ sent: 0, failed: 1 });
      now = at(now, retryDelay(attempt));
    }
    expect((await rowOf(soft)).failedAt).toBeInstanceOf(Date);
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(now, DELIVERY.maxRetryMs) })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
  });

  it('a worker that stops mid-send holds its mail only until its lease ends', async () => {
    const id = await queue('lease@example.jp');
    const t0 = new Date();
    expect((await claimDueMail(db, t0)).map((r) => r.id)).toEqual([id]);
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(t0, DELIVERY.leaseMs - 1000) })).toEqual({ sent: 0, failed: 0 });
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(t0, DELIVERY.leaseMs) })).toEqual({ sent: 1, failed: 0 });
    expect((await rowOf(id)).attempts).toBe(2);
    expect(await smtp.waitFor(1)).toHaveLength(1);
  });

  it('a mail unsent for a day is not sent at all', async () => {
    const id = await queue('stale@example.jp');
    expect(await deliverDueMail(db, transport, { from: FROM, now: at(new Date(), DELIVERY.maxAgeMs + 60_000) })).toEqual({ sent: 0, failed: 0 });
    expect((await rowOf(id)).sentAt).toBeNull();
  });

  it(`two workers on one database (${engine === 'postgres' ? 'two connection pools' : 'one embedded database'}) send each mail exactly once`, async () => {
    const N = 30;
    const ids: number[] = [];
    for (let i = 0; i < N; i++) ids.push(await queue(`many${i}@example.jp`, { subject: `${SUBJECT} #${i}` }));
    // On PostgreSQL the second worker is another pool, as another instance would be.
    const other = engine === 'postgres' ? await openDb({ databaseUrl: get().location, max: 3 }) : undefined;
    const second = nodemailer.createTransport(smtp.url);
    try {
      const drain = async (on: Db, t: MailTransport) => {
        let sent = 0;
        for (;;) {
          const run = await deliverDueMail(on, t, { from: FROM, batch: 3 });
          if (run.sent + run.failed === 0) return sent;
          sent += run.sent;
        }
      };
      const [a, b] = await Promise.all([drain(db, transport), drain(other?.db ?? db, second)]);
      expect(a + b).toBe(N);
      expect(a).toBeGreaterThan(0);
      expect(b).toBeGreaterThan(0);
      const mails = await smtp.waitFor(N);
      expect(new Set(mails.map((m) => m.messageId)).size).toBe(N);
      expect(new Set(mails.map((m) => m.subject))).toEqual(new Set(Array.from({ length: N }, (_, i) => `${SUBJECT} #${i}`)));
      const rows = await db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
      expect(rows.every((r) => r.sentAt && r.attempts === 1)).toBe(true);
    } finally {
      second.close();
      await other?.close();
    }
    expect(smtp.received).toHaveLength(N);
  });
});
