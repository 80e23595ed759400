/**
 * The built server with SMTP_URL set, on both engines: a booking's confirmation reaches a real SMTP
 * server in the diner's language (the request's), with its subject decoded intact, and the outbox
 * row records that it was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';
import type { App } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678' };

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`mail through SMTP [${engine}]`, () => {
    let smtp: TestSmtp;
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      smtp = await startSmtp();
      ({ app, fx, cleanup } = await startWithFixture(engine, { SMTP_URL: smtp.url, PUBLIC_ORIGIN: 'https://sugu.test' }));
    });
    afterAll(async () => {
      await cleanup?.();
      await smtp?.close();
    });

    it('sends the confirmation in the language the diner booked in', async () => {
      const book = (email: string, language: string, hour: number) =>
        app.fetch('/api/guest-bookings', {
          method: 'POST',
          json: { ...guest, phone: `090-1234-${5000 + hour}`, email, store_id: fx.storeId, start: tokyoStart(2, hour), party_size: 2 },
          headers: { 'accept-language': language },
        });
      const ja = await book('hanako@example.jp', 'ja-JP,ja;q=0.9', 18);
      expect(ja.status).toBe(201);
      const en = await book('visitor@example.com', 'en-US,en;q=0.9', 20);
      expect(en.status).toBe(201);
      const { code: jaCode } = (await ja.json()) as { code: string };
      const { code: enCode } = (await en.json()) as { code: string };
      const mails = await smtp.waitFor(2);
      const toJa = mails.find((m) => m.to === 'hanako@example.jp')!;
      const toEn = mails.find((m) => m.to === 'visitor@example.com')!;
      expect(toJa.subject).toBe(`【すぐ予約】ご予約が確定しました（テスト酒場 渋谷 ${jaCode}）`);
      expect(toJa.parsed.text).toContain('ご予約が確定しました');
      expect(toJa.parsed.text).toContain('https://sugu.test/store/');
      expect(String(toJa.parsed.html)).toContain('<html lang="ja"');
      expect(toEn.subject).toContain(enCode);
      expect(toEn.subject).toMatch(/booking/i);
      expect(String(toEn.parsed.html)).toContain('<html lang="en"');
      expect(toEn.parsed.headers.get('content-language')).toBe('en');
      // Each once, however often the worker looks again.
      await app.waitForOutput(/"msg":"mail_sent".*"msg":"mail_sent"/s, 'two mail_sent log lines');
      expect(app.output().match(/"msg":"mail_sent"/g)).toHaveLength(2);
    });
  });
}
