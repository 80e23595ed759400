/**
 * Mail and per-address limits under abuse, on both engines, with mail delivered to a real SMTP
 * server and the limits as they ship (the per-recipient cap lowered to 8 and the change-mail window
 * to 15 s so a test can see both). Behind a trusted proxy (127.0.0.1), so each request names its
 * client address in X-Forwarded-For, IPv6 included:
 *
 * - a client is counted by its address group: an IPv6 /64 is one client;
 * - per-e-mail limits count mailboxes: `+tag`, letter case and Gmail's dots do not walk past them;
 * - every kind of mail to one mailbox stops at its cap;
 * - a booking toggled 30 times mails one change at once and one with its latest state later;
 * - password reset: limited per (address, account), so the owner from elsewhere is never refused;
 * - sign-up on a taken address answers as a new one and mails the owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';
import type { App } from '../helpers/app';
import { CookieJar } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { normaliseRecipient } from '../../src/lib/contract/recipient';

type Json = Record<string, any>;
const CHANGE_WINDOW_S = 15;

/** Distinct starts two hours apart from the day after tomorrow: never the same table twice. */
let nextSlot = 0;
const freshStart = () => {
  const i = nextSlot++;
  return tokyoStart(2 + Math.floor(i / 12), (i % 12) * 2);
};
let serial = 0;
const diner = (email?: string) => {
  const n = ++serial;
  return {
    name: '予約 花子',
    name_kana: 'ヨヤク ハナコ',
    phone: `090-${String(3000 + n).slice(-4)}-${String(4000 + n).slice(-4)}`,
    email: email ?? `diner-${process.pid}-${n}@example.jp`,
  };
};

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`mail and address limits [${engine}]`, () => {
    let smtp: TestSmtp;
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      nextSlot = 0;
      smtp = await startSmtp();
      ({ app, fx, cleanup } = await startWithFixture(engine, {
        SMTP_URL: smtp.url,
        TRUST_PROXY: '127.0.0.1',
        GUEST_BOOKINGS_PER_ADDRESS: '',
        BOOKINGS_PER_CONTACT: '',
        MAIL_PER_RECIPIENT: '8',
        BOOKING_CHANGE_MAIL_SECONDS: String(CHANGE_WINDOW_S),
      }));
    });
    afterAll(async () => {
      await cleanup?.();
      await smtp?.close();
    });

    const from = (address: string) => ({ 'x-forwarded-for': address, 'accept-language': 'ja' });
    const book = (address: string, who = diner()) =>
      app.fetch('/api/guest-bookings', { method: 'POST', headers: from(address), json: { store_id: fx.storeId, start: freshStart(), party_size: 2, ...who } });
    const watch = (address: string, email: string) =>
      app.fetch('/api/watches', { method: 'POST', headers: from(address), json: { store_id: fx.storeId, party_size: 2, email } });
    const forgot = (address: string, email: string) => app.fetch('/api/password/forgot', { method: 'POST', headers: from(address), json: { email } });
    /** Mails the SMTP server received for one mailbox, however its address was written. */
    const mailsTo = (mailbox: string) => smtp.received.filter((m) => normaliseRecipient(m.to) === mailbox);
    const lines = (pattern: RegExp) =>
      app
        .output()
        .split('\n')
        .filter((l) => pattern.test(l));

    it('counts an IPv6 client by its /64: 20 guest bookings from one /64, however its addresses rotate, then 429; the next /64 books', async () => {
      for (let i = 1; i <= 20; i++) expect((await book(`2001:db8:${engine === 'pglite' ? 'a' : 'b'}:1::${i.toString(16)}`)).status).toBe(201);
      const rotated = await book(`2001:db8:${engine === 'pglite' ? 'a' : 'b'}:1:ffff:ffff:ffff:1`);
      expect(rotated.status).toBe(429);
      expect(Number(rotated.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await book(`2001:db8:${engine === 'pglite' ? 'a' : 'b'}:2::1`)).status).toBe(201);
    }, 120_000);

    it('holds plus-addressed and re-cased e-mails to the per-address limits: 5 bookings a day, 10 watch confirmations an hour', async () => {
      const domain = `plus-${engine}.example`;
      for (let i = 1; i <= 5; i++) expect((await book(`198.51.100.${i}`, diner(`victim+${i}@${domain}`))).status).toBe(201);
      const sixth = await book('198.51.100.6', diner(`Victim+6@${domain.toUpperCase()}`));
      expect(sixth.status).toBe(429);
      expect(((await sixth.json()) as Json).error.code).toBe('rate_limited');

      for (let i = 1; i <= 10; i++) expect((await watch(`198.51.101.${i}`, `watcher+${i}@${domain}`)).status).toBe(201);
      expect((await watch('198.51.101.11', `WATCHER+11@${domain}`)).status).toBe(429);
    }, 120_000);

    it('stops every kind of mail to one mailbox at its cap (8 here): bookings and watch confirmations to Gmail spellings of one address', async () => {
      const spellings = (i: number) => [`c.a.p+${i}@gmail.com`, `CAP+${i}@googlemail.com`, `ca.p@GMAIL.com`][i % 3]!;
      for (let i = 0; i < 5; i++) expect((await book(`198.51.102.${i + 1}`, diner(spellings(i)))).status).toBe(201);
      for (let i = 5; i < 10; i++) expect((await watch(`198.51.103.${i + 1}`, spellings(i))).status).toBe(201);
      // Ten mails asked for: eight go, two are recorded as over the limit and never sent.
      const over = /"msg":"mail_over_recipient_limit"[^\n]*"to":"c…@(gmail|googlemail)\.com"/i;
      await expect.poll(() => lines(over).length).toBe(2);
      expect(lines(/"msg":"mail_queued"[^\n]*"to":"c…@(gmail|googlemail)\.com"/i)).toHaveLength(8);
      await expect.poll(() => mailsTo('cap@gmail.com').length, { timeout: 60_000 }).toBe(8);
    }, 120_000);

    it(
      'mails 30 changes of one booking as one change at once and one later with the latest state, not 30',
      async () => {
        const to = `patch@coalesce-${engine}.example`;
        const booked = await book('198.51.104.1', diner(to));
        expect(booked.status).toBe(201);
        const { id, edit_token } = (await booked.json()) as Json;
        const began = Date.now();
        for (let i = 0; i < 30; i++) {
          const res = await app.fetch(`/api/guest-bookings/${id}`, {
            method: 'PATCH',
            headers: { 'x-booking-token': edit_token, ...from('198.51.104.1') },
            json: { party_size: i === 29 ? 4 : 3 - (i % 2) },
          });
          expect(res.status).toBe(200);
        }
        const elapsed = Date.now() - began;
        const mine = /"to":"p…@coalesce-[a-z]+\.example"/;
        const changed = () => lines(/"msg":"mail_(queued|coalesced)"[^\n]*"kind":"booking_changed"/).filter((l) => mine.test(l));
        await expect.poll(() => changed().length).toBe(30);
        const queued = changed().filter((l) => l.includes('"msg":"mail_queued"')).length;
        // One mail per window at most (on a slow machine the 30 changes may span more than one).
        expect(queued).toBeLessThanOrEqual(1 + Math.ceil(elapsed / (CHANGE_WINDOW_S * 1000)));
        expect(queued).toBeLessThan(5);
        // The last one waits out the window and carries the latest state: 4 people.
        await expect.poll(() => mailsTo(to).filter((m) => m.parsed.text?.includes('4名')).length, { timeout: (CHANGE_WINDOW_S + 45) * 1000 }).toBe(1);
        expect(mailsTo(to).filter((m) => m.subject.includes('変更'))).toHaveLength(queued);
      },
      (CHANGE_WINDOW_S + 75) * 1000,
    );

    it('never refuses the owner a password reset: 5 requests from one address stop that address only, the owner elsewhere gets the mail', async () => {
      const owner = fx.users[0]!.email;
      for (let i = 0; i < 5; i++) expect((await forgot('203.0.113.5', owner)).status).toBe(202);
      const blocked = await forgot('203.0.113.5', owner.toUpperCase());
      expect(blocked.status).toBe(429);
      // The owner, from home: answered, and mailed a link like the five before.
      expect((await forgot('192.0.2.77', owner)).status).toBe(202);
      await expect.poll(() => mailsTo(owner).filter((m) => m.subject.includes('パスワード再設定')).length, { timeout: 60_000 }).toBe(6);
      expect(mailsTo(owner).at(-1)!.parsed.text).toMatch(/\/auth\/reset-password\?token=[\w-]+/);
      // An address without an account is answered alike, limits included; an IPv6 client is one across its /64.
      const nobody = `nobody-${engine}@example.jp`;
      for (let i = 1; i <= 5; i++) expect((await forgot(`2001:db8:c:1::${i}`, nobody)).status).toBe(202);
      expect((await forgot('2001:db8:c:1:ffff::99', nobody)).status).toBe(429);
      expect((await forgot('2001:db8:c:2::1', nobody)).status).toBe(202);
    });

    it('answers sign-up on a taken address (any case) as on a new one, signs no one in, and mails the owner that someone tried (the new address its verification link)', async () => {
      const owner = fx.users[1]!.email;
      const signUp = (email: string) =>
        app.fetch('/api/users', { method: 'POST', headers: from('198.51.105.1'), json: { name: '他人', email, password: 'someone-elses-pass', agree: true } });
      const fresh = await signUp(`fresh-${engine}@example.jp`);
      const taken = await signUp(owner.toUpperCase());
      expect([taken.status, await taken.json()]).toEqual([201, {}]);
      expect([fresh.status, await fresh.json()]).toEqual([201, {}]);
      // Neither is signed in: a session would tell a new account from a taken address.
      expect(new CookieJar().store(taken).get('example')).toBeUndefined();
      expect(new CookieJar().store(fresh).get('example')).toBeUndefined();
      expect(fresh.headers.getSetCookie()).toEqual(taken.headers.getSetCookie());
      await expect
        .poll(() => mailsTo(`fresh-${engine}@example.jp`).filter((m) => /\/auth\/verify\?token=/.test(m.parsed.text ?? '')).length, { timeout: 60_000 })
        .toBe(1);
      await expect
        .poll(() => mailsTo(owner).filter((m) => m.subject === '【すぐ予約】このメールアドレスでの新規登録がありました').length, { timeout: 60_000 })
        .toBe(1);
      const [mail] = mailsTo(owner).filter((m) => m.subject.includes('新規登録'));
      expect(mail!.parsed.text).toContain('/auth/signin');
      expect(mail!.parsed.text).not.toContain('someone-elses-pass');
      // The form without JavaScript answers alike: the same redirect, whether or not the address is taken.
      const form = (email: string) =>
        app.fetch('/auth/signup', {
          method: 'POST',
          redirect: 'manual',
          headers: { ...from('198.51.105.2'), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ name: '他人', email, password: 'someone-elses-pass', agree: 'on' }),
        });
      const formTaken = await form(owner);
      const formFresh = await form(`fresh-form-${engine}@example.jp`);
      expect([formTaken.status, formTaken.headers.get('location')]).toEqual([303, '/auth/verify?sent=1']);
      expect([formFresh.status, formFresh.headers.get('location')]).toEqual([303, '/auth/verify?sent=1']);
      expect(formFresh.headers.getSetCookie()).toEqual(formTaken.headers.getSetCookie());
      await expect.poll(() => mailsTo(owner).filter((m) => m.subject.includes('新規登録')).length, { timeout: 60_000 }).toBe(2);
    });
  });
}
