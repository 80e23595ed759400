/**
 * Account e-mail verification, on both engines, with the mail read as it arrived at the app's SMTP
 * catcher: sign-up answers a taken address byte for byte as a new one (no session either way); an
 * unverified account books but is mailed nothing but its link, and its watch waits; the link works
 * once, and a used or expired one is refused in the diner's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CookieJar, mailedTo, openAppDb, type App } from '../helpers/app';
import { signUp, uniqueEmail, verificationToken } from '../helpers/auth';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

const EN = { 'accept-language': 'en' };
const JA = { 'accept-language': 'ja' };
const BOOKED = /^【すぐ予約】ご予約が確定しました/;

/** What a client can tell of an answer: status, body bytes, and every header but the ones that differ per request. */
async function seen(res: Response) {
  const headers = [...res.headers].filter(([name]) => !['date', 'x-request-id', 'server-timing'].includes(name));
  return { status: res.status, headers, cookies: res.headers.getSetCookie(), body: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

/** Polls until `check` holds (mail goes out after the answer). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`e-mail verification [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    let slot = 0;
    const start = () => tokyoStart(2 + Math.floor(slot / 12), (slot++ % 12) * 2);
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
    }, 240_000);
    afterAll(() => cleanup?.());

    it('answers sign-up with a taken address byte for byte as with a new one, cookies included, on the API and the form', async () => {
      const owner = await signUp(app);
      const body = (email: string) => ({ name: '他人', email, password: 'someone-elses-pass', agree: true });
      const fresh = await seen(await app.fetch('/api/users', { method: 'POST', headers: JA, json: body(uniqueEmail('fresh')) }));
      const taken = await seen(await app.fetch('/api/users', { method: 'POST', headers: JA, json: body(owner.email.toUpperCase()) }));
      expect(fresh.status).toBe(201);
      expect(taken).toEqual(fresh);
      const form = (email: string) =>
        app.fetch('/auth/signup', {
          method: 'POST',
          headers: { ...JA, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ name: '他人', email, password: 'someone-elses-pass', agree: 'on' }),
        });
      const formFresh = await seen(await form(uniqueEmail('fresh-form')));
      const formTaken = await seen(await form(owner.email));
      expect(formFresh.status).toBe(303);
      expect(formTaken).toEqual(formFresh);
      // Only the mailboxes differ: the owner is told someone tried, the new address gets its link.
      await until(() => mailedTo(app, owner.email).filter((m) => m.subject.includes('新規登録')).length === 2, "the owner's two notes");
    }, 120_000);

    it('lets an unverified account book but mails it nothing but the link; once verified, booking mail comes', async () => {
      const u = await signUp(app, {}, { verify: false });
      const me = await (await app.fetch('/api/me', { cookie: u.jar.header() })).json();
      expect(me).toMatchObject({ email: u.email, email_verified: false });
      const booked = await app.fetch('/api/bookings', {
        method: 'POST',
        cookie: u.jar.header(),
        headers: JA,
        json: { store_id: fx.storeId, start: start(), party_size: 2 },
      });
      expect(booked.status).toBe(201);
      // The booking page says why no mail comes, with the form that sends the link again.
      const { id } = (await booked.json()) as { id: number };
      const page = await (await app.fetch(`/store/${fx.storeId}/booking/complete/${id}`, { cookie: u.jar.header(), headers: JA })).text();
      expect(page).toContain('メールアドレスが未確認です');
      expect(page).toContain('確認メールを再送する');
      expect(page).toContain('action="/auth/verify?resend=1&amp;next=');
      const link = await verificationToken(app, u.email);
      // The booking mail was refused at the outbox, kept as the record of what was not sent.
      if (app.databaseUrl) {
        const h = await openAppDb(app);
        try {
          const rows = await h.db.execute<{ kind: string; error: string | null }>(
            sql`select kind, error from mail_outbox where lower(to_address) = lower(${u.email}) order by id`,
          );
          expect([...rows].map((r) => [r.kind, r.error])).toEqual([
            ['email_verification', null],
            ['booking_created', 'unverified_recipient'],
          ]);
        } finally {
          await h.close();
        }
      }
      expect(app.output()).toMatch(/"msg":"mail_held_unverified".*"kind":"booking_created"/);
      expect(mailedTo(app, u.email).map((m) => m.subject)).toEqual(['[Sugu] Confirm your e-mail address']);

      const verified = await app.fetch('/api/email-verification', { method: 'POST', json: { token: link } });
      expect(verified.status).toBe(204);
      expect(await (await app.fetch('/api/me', { cookie: u.jar.header() })).json()).toMatchObject({ email_verified: true });
      expect(
        (
          await app.fetch('/api/bookings', {
            method: 'POST',
            cookie: u.jar.header(),
            headers: JA,
            json: { store_id: fx.storeId, start: start(), party_size: 2 },
          })
        ).status,
      ).toBe(201);
      await until(() => mailedTo(app, u.email).length === 2, 'the booking mail after verification');
      expect(mailedTo(app, u.email)[1]!.subject).toMatch(BOOKED);
      const after = await (await app.fetch(`/store/${fx.storeId}/booking/complete/${id}`, { cookie: u.jar.header(), headers: JA })).text();
      expect(after).not.toContain('メールアドレスが未確認です');
    });

    it('works a link once; a used one is refused in the diner’s language, on the API and the page', async () => {
      const u = await signUp(app, {}, { verify: false });
      const token = await verificationToken(app, u.email);
      const first = await app.fetch('/api/email-verification', { method: 'POST', headers: EN, json: { token } });
      expect(first.status).toBe(204);
      expect(new CookieJar().store(first).get('example')).toBeTruthy();
      const again = await app.fetch('/api/email-verification', { method: 'POST', headers: EN, json: { token } });
      expect(again.status).toBe(400);
      expect(again.headers.getSetCookie().filter((c) => c.startsWith('example='))).toEqual([]);
      expect(await again.json()).toMatchObject({
        error: { code: 'invalid_link', message: 'This confirmation link has already been used or has expired. Sign in and send the confirmation mail again' },
      });
      const page = await app.fetch('/auth/verify', {
        method: 'POST',
        headers: { ...JA, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('この確認リンクは使用済みか、有効期限が切れています');
    });

    it('verifies and signs in from the plain form of the link’s page', async () => {
      const u = await signUp(app, {}, { verify: false });
      const token = await verificationToken(app, u.email);
      // Opening the link only shows the button: a mail scanner following it spends nothing.
      const opened = await (await app.fetch(`/auth/verify?token=${token}`, { headers: JA })).text();
      expect(opened).toContain('メールアドレスを確認する');
      const res = await app.fetch('/auth/verify', {
        method: 'POST',
        headers: { ...JA, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      expect([res.status, res.headers.get('location')]).toEqual([303, '/account-info']);
      const jar = new CookieJar().store(res);
      expect(await (await app.fetch('/api/me', { cookie: jar.header() })).json()).toMatchObject({ email: u.email, email_verified: true });
    });

    it('refuses an expired link', async () => {
      if (!app.databaseUrl) return; // the embedded database is the server's alone: its links are aged on PostgreSQL
      const u = await signUp(app, {}, { verify: false });
      const token = await verificationToken(app, u.email);
      const h = await openAppDb(app);
      try {
        await h.db.execute(sql`update email_verifications set expires_at = now() - interval '1 second' where user_id = ${u.userId}`);
      } finally {
        await h.close();
      }
      const res = await app.fetch('/api/email-verification', { method: 'POST', headers: JA, json: { token } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: { code: 'invalid_link', message: 'この確認リンクは使用済みか、有効期限が切れています。ログインして確認メールを再送してください' },
      });
      expect(await (await app.fetch('/api/me', { cookie: u.jar.header() })).json()).toMatchObject({ email_verified: false });
    });

    it('keeps an unverified account’s watch unconfirmed until the link is used', async () => {
      const u = await signUp(app, {}, { verify: false });
      const made = await app.fetch('/api/watches', { method: 'POST', cookie: u.jar.header(), headers: JA, json: { store_id: fx.storeId, party_size: 2 } });
      expect(made.status).toBe(201);
      expect(await made.json()).toMatchObject({ confirmed: false });
      const verified = await app.fetch('/api/email-verification', { method: 'POST', json: { token: await verificationToken(app, u.email) } });
      expect(verified.status).toBe(204);
      const list = (await (await app.fetch('/api/watches', { cookie: u.jar.header() })).json()) as { items: { confirmed: boolean }[] };
      expect(list.items.map((w) => w.confirmed)).toEqual([true]);
      // A verified account's next watch is confirmed at once.
      const next = await app.fetch('/api/watches', { method: 'POST', cookie: u.jar.header(), headers: JA, json: { store_id: fx.storeId, party_size: 3 } });
      expect(await next.json()).toMatchObject({ confirmed: true });
    });

    it('sends the link again on asking (API and plain form), a limited number of times', async () => {
      const u = await signUp(app, {}, { verify: false });
      await verificationToken(app, u.email);
      expect((await app.fetch('/api/me/email-verification', { method: 'POST' })).status).toBe(401);
      expect((await app.fetch('/api/me/email-verification', { method: 'POST', cookie: u.jar.header() })).status).toBe(202);
      const form = await app.fetch('/auth/verify?resend=1&next=%2Fbooking-list', {
        method: 'POST',
        cookie: u.jar.header(),
        headers: { ...JA, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect([form.status, form.headers.get('location')]).toEqual([303, '/booking-list']);
      await until(() => mailedTo(app, u.email).length === 3, 'three verification mails');
      expect((await app.fetch('/api/me/email-verification', { method: 'POST', cookie: u.jar.header() })).status).toBe(202);
      const over = await app.fetch('/api/me/email-verification', { method: 'POST', cookie: u.jar.header(), headers: EN });
      expect(over.status).toBe(429);
      // Any link mailed still works.
      const token = await verificationToken(app, u.email);
      expect((await app.fetch('/api/email-verification', { method: 'POST', json: { token } })).status).toBe(204);
    });
  });
}
