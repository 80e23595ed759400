import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CookieJar, forEachApp, openAppDb } from '../helpers/app';
import { signIn, signUp, uniqueEmail, verificationToken } from '../helpers/auth';

const EN = { 'accept-language': 'en' };

/** A signed-in browser is sent away from the sign-in page; a guest sees it. */
async function signedIn(app: ReturnType<Parameters<Parameters<typeof forEachApp>[1]>[0]>, auth: { cookie?: string; headers?: Record<string, string> }) {
  const res = await app.fetch('/auth/signin', auth);
  return res.status === 302 && res.headers.get('location') === '/home';
}

forEachApp(
  'sign-up, sign-in, sign-out',
  (app) => {
    it('signs up with 201 {} and no cookie; the mailed link signs in with an HttpOnly, SameSite=Lax session cookie for one day', async () => {
      const email = uniqueEmail();
      const res = await app().fetch('/api/users', { method: 'POST', json: { name: '山田 太郎', email, password: 'kiwi-lantern-42', agree: true } });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({});
      expect(res.headers.getSetCookie().filter((c) => c.startsWith('example='))).toEqual([]);
      const verified = await app().fetch('/api/email-verification', { method: 'POST', json: { token: await verificationToken(app(), email) } });
      expect(verified.status).toBe(204);
      const cookie = verified.headers.getSetCookie().find((c) => c.startsWith('example='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//i);
      // Plain-http 127.0.0.1: a Secure cookie would never come back.
      expect(cookie).not.toMatch(/Secure/i);
      const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!);
      expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(120_000);
      expect(await signedIn(app(), { cookie: new CookieJar().store(verified).header() })).toBe(true);
    });

    it('answers a taken address, in any letter case, as a new one: 201 `{}`, but no session and the account unchanged', async () => {
      const me = await signUp(app());
      const fresh = await app().fetch('/api/users', {
        method: 'POST',
        headers: EN,
        json: { name: 'X', email: uniqueEmail(), password: 'another-good-pass', agree: true },
      });
      const taken = await app().fetch('/api/users', {
        method: 'POST',
        headers: EN,
        json: { name: 'X', email: me.email.toUpperCase(), password: 'another-good-pass', agree: true },
      });
      expect([taken.status, await taken.json()]).toEqual([fresh.status, await fresh.json()]);
      expect(taken.status).toBe(201);
      expect(await signedIn(app(), { cookie: new CookieJar().store(taken).header() })).toBe(false);
      // The owner's password still works; the one typed at the taken address does not.
      await signIn(app(), me.email, me.password);
      expect((await app().fetch('/api/login', { method: 'POST', json: { email: me.email, password: 'another-good-pass' } })).status).toBe(401);
    });

    it('refuses short, overlong and common passwords and a missing agreement, naming the fields', async () => {
      const cases: [unknown, string, RegExp][] = [
        [{ name: 'A', email: uniqueEmail(), password: 'short', agree: true }, 'password', /at least 8/],
        [{ name: 'A', email: uniqueEmail(), password: 'x'.repeat(129), agree: true }, 'password', /at most 128/],
        [{ name: 'A', email: uniqueEmail(), password: 'Password123', agree: true }, 'password', /too common/],
        [{ name: 'A', email: uniqueEmail(), password: 'a-fine-password', agree: false }, 'agree', /terms of service/],
        [{ name: 'A', email: 'not-an-address', password: 'a-fine-password', agree: true }, 'email', /valid e-mail/],
      ];
      for (const [json, field, message] of cases) {
        const res = await app().fetch('/api/users', { method: 'POST', headers: EN, json });
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
        expect(body.error.code).toBe('validation_failed');
        expect(body.error.fields[field]).toMatch(message);
      }
      // A long passphrase without any composition is fine (64+ characters).
      const long = await app().fetch('/api/users', {
        method: 'POST',
        json: { name: 'A', email: uniqueEmail(), password: 'correct horse battery staple '.repeat(4), agree: true },
      });
      expect(long.status).toBe(201);
    });

    it('signs in with {token, user_id}, a new token every time, and accepts the token as Bearer', async () => {
      const me = await signUp(app());
      const a = await signIn(app(), me.email, me.password);
      const b = await signIn(app(), me.email.toUpperCase(), me.password);
      expect(a.userId).toBe(me.userId);
      expect(a.token).not.toBe(b.token);
      expect(a.token).not.toBe(me.token);
      expect(Buffer.from(a.token, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(a.jar.get('example')).toBe(a.token);
      expect(await signedIn(app(), { headers: { authorization: `Bearer ${a.token}` } })).toBe(true);
      expect(await signedIn(app(), { headers: { authorization: 'Bearer not-a-token' } })).toBe(false);
    });

    it('answers 401 unauthorized with the same message for a wrong password and an unknown address', async () => {
      const me = await signUp(app());
      const wrong = await app().fetch('/api/login', { method: 'POST', headers: EN, json: { email: me.email, password: 'not-the-password' } });
      const unknown = await app().fetch('/api/login', { method: 'POST', headers: EN, json: { email: uniqueEmail(), password: 'not-the-password' } });
      expect([wrong.status, unknown.status]).toEqual([401, 401]);
      const expected = { error: { code: 'unauthorized', message: 'The email / password combination is invalid' } };
      expect(await wrong.json()).toEqual(expected);
      expect(await unknown.json()).toEqual(expected);
      expect(wrong.headers.getSetCookie().some((c) => c.startsWith('example='))).toBe(false);
      const ja = await app().fetch('/api/login', { method: 'POST', headers: { 'accept-language': 'ja' }, json: { email: me.email, password: 'nope-nope' } });
      expect(((await ja.json()) as { error: { message: string } }).error.message).toBe('メールアドレスまたはパスワードが正しくありません');
    });

    it('signs out with 204 and ends the session on the server, while other sessions live on', async () => {
      const me = await signUp(app());
      const other = await signIn(app(), me.email, me.password);
      const stolenCopy = me.jar.header();
      const res = await app().fetch('/api/login', { method: 'DELETE', cookie: me.jar.header() });
      expect(res.status).toBe(204);
      expect(new CookieJar().store(res).get('example')).toBeUndefined();
      expect(res.headers.getSetCookie().some((c) => /^example=/.test(c))).toBe(true);
      // The old cookie, replayed, is worthless: the session is gone server-side.
      expect(await signedIn(app(), { cookie: stolenCopy })).toBe(false);
      expect(await signedIn(app(), { cookie: other.jar.header() })).toBe(true);
      // Signing out again, or as a guest, is still 204.
      expect((await app().fetch('/api/login', { method: 'DELETE', cookie: stolenCopy })).status).toBe(204);
      expect((await app().fetch('/api/login', { method: 'DELETE' })).status).toBe(204);
    });

    it('says so on the next page after signing out (ログアウトしました), and not for a guest', async () => {
      const me = await signUp(app());
      const res = await app().fetch('/api/login', { method: 'DELETE', cookie: me.jar.header(), headers: { 'accept-language': 'ja' } });
      expect(res.status).toBe(204);
      const jar = new CookieJar().store(res);
      const home = await app().fetch('/home', { cookie: jar.header(), headers: { 'accept-language': 'ja' } });
      expect(await home.text()).toContain('ログアウトしました');
      const guest = await app().fetch('/api/login', { method: 'DELETE' });
      expect(guest.headers.getSetCookie().some((c) => /^flash=/.test(c))).toBe(false);
    });

    it('a guest tapping the heart is told why sign-in opened, and is sent back after', async () => {
      const res = await app().fetch('/favourites/3', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja', origin: app().url, referer: `${app().url}/stores?party=2` },
        body: 'favourite=1',
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/auth/signin?next=${encodeURIComponent('/stores?party=2')}`);
      const signin = await app().fetch(res.headers.get('location')!, { cookie: new CookieJar().store(res).header(), headers: { 'accept-language': 'ja' } });
      const html = await signin.text();
      expect(html).toContain('お気に入りに保存するにはログインが必要です');
      // Signing in on that page comes back to where the heart was.
      const me = await signUp(app());
      const back = await app().fetch(res.headers.get('location')!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app().url },
        body: new URLSearchParams({ email: me.email, password: me.password }).toString(),
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe('/stores?party=2');
    });

    it('replaces the session a browser already had when it signs in again', async () => {
      const me = await signUp(app());
      const before = me.jar.header();
      const res = await app().fetch('/api/login', { method: 'POST', cookie: before, json: { email: me.email, password: me.password } });
      expect(res.status).toBe(200);
      expect(await signedIn(app(), { cookie: before })).toBe(false);
      expect(await signedIn(app(), { cookie: new CookieJar().store(res).header() })).toBe(true);
    });

    it('takes away a cookie whose session is gone', async () => {
      const me = await signUp(app());
      const cookie = me.jar.header();
      // The session ends (signed out in another tab); this browser still sends the old cookie.
      expect((await app().fetch('/api/login', { method: 'DELETE', cookie })).status).toBe(204);
      for (const path of ['/api/me', '/booking-list']) {
        const res = await app().fetch(path, { cookie });
        const set = res.headers.getSetCookie().find((c) => c.startsWith('example='));
        expect([path, set]).toEqual([path, expect.stringMatching(/^example=(deleted)?;.*Expires=Thu, 01 Jan 1970/i)]);
      }
    });

    it('stores sessions only as hashes, renews one in use, and lets an unused one expire after a day', async () => {
      if (app().engine !== 'postgres') return; // the embedded database is locked by its server
      const me = await signUp(app());
      const h = await openAppDb(app());
      try {
        const rows = await h.sql<
          { id: string; expires_at: Date; created_at: Date }[]
        >`select id, expires_at, created_at from sessions where user_id = ${me.userId}`;
        expect(rows.length).toBe(2);
        const ids = rows.map((r) => r.id);
        expect(ids).toContain(createHash('sha256').update(me.token).digest('hex'));
        expect(ids).not.toContain(me.token);
        for (const r of rows) expect(new Date(r.expires_at).getTime() - new Date(r.created_at).getTime()).toBe(86_400_000);
        // Sliding expiry: a session last seen two hours ago is renewed for a day, cookie included,
        // and not written again on the next request.
        const cookieToken = me.jar.header().match(/example=([^;]+)/)![1]!;
        const id = createHash('sha256').update(cookieToken).digest('hex');
        await h.sql`update sessions set last_seen_at = now() - interval '2 hours', expires_at = now() + interval '1 hour' where id = ${id}`;
        const renewed = await app().fetch('/api/me', { cookie: me.jar.header() });
        expect(renewed.status).toBe(200);
        const set = renewed.headers.getSetCookie().find((c) => c.startsWith('example='))!;
        expect(set).toContain(`example=${cookieToken};`);
        expect(Date.parse(set.match(/Expires=([^;]+)/i)![1]!)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
        const [row] = await h.sql<{ expires_at: Date }[]>`select expires_at from sessions where id = ${id}`;
        expect(new Date(row!.expires_at).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
        const again = await app().fetch('/api/me', { cookie: me.jar.header() });
        expect(again.headers.getSetCookie().filter((c) => c.startsWith('example='))).toEqual([]);
        await h.sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${me.userId}`;
        expect(await signedIn(app(), { cookie: me.jar.header() })).toBe(false);
        expect(await signedIn(app(), { headers: { authorization: `Bearer ${me.token}` } })).toBe(false);
      } finally {
        await h.close();
      }
    });
  },
  {},
  { shared: true },
);

describe('test helper', () => {
  it('makes unique addresses', () => {
    expect(uniqueEmail()).not.toBe(uniqueEmail());
  });
});
