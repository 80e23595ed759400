/**
 * 「LINEでログイン」 against a real OpenID provider (oidc-provider) running in this test: the
 * server discovers it, sends the browser there, and redeems the code it returns. A second provider
 * with the same issuer but another signing key stands in for a forged ID token.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CookieJar, forEachApp, type App } from '../helpers/app';
import { signUp, uniqueEmail, verificationToken, verifyEmail } from '../helpers/auth';
import { freePort } from '../helpers/server';
import { rawRequest } from '../helpers/raw';
import { oidcEnv, startTestProvider, type ProviderAccount, type TestProvider } from '../helpers/oidc-provider';

const ORIGIN = 'http://sugu.localhost';
const REDIRECT_URI = `${ORIGIN}/auth/oidc/line/callback`;
const port = await freePort();
const issuer = `http://127.0.0.1:${port}`;
let provider: TestProvider;

beforeAll(async () => {
  provider = await startTestProvider(port, REDIRECT_URI);
});
afterAll(() => provider?.close());

interface Journey {
  /** The browser's cookies on Sugu. */
  jar: CookieJar;
  /** The callback's path and query on Sugu, as the provider sent the browser there. */
  callback: string;
  /** The jar as it was just before the callback (with the state cookie). */
  before: string;
}

/** 「LINEでログイン」 up to the provider's redirect back: the provider's login done as `accountId`. */
async function toProvider(app: App, accountId: string, jar = new CookieJar(), startPath = '/auth/oidc/line'): Promise<Journey> {
  const start = await app.fetch(startPath, { cookie: jar.header() });
  expect(start.status).toBe(302);
  jar.store(start);
  const url = start.headers.get('location')!;
  expect(url.startsWith(`${issuer}/auth?`)).toBe(true);
  const params = new URL(url).searchParams;
  expect(params.get('code_challenge_method')).toBe('S256');
  expect(params.get('redirect_uri')).toBe(REDIRECT_URI);
  return followProvider(url, accountId, jar);
}

/** From the provider's authorisation URL to its redirect back to Sugu, signing in there as `accountId`. */
async function followProvider(authorisationUrl: string, accountId: string, jar: CookieJar): Promise<Journey> {
  const providerJar = new CookieJar();
  let url = authorisationUrl;
  for (let step = 0; step < 10; step++) {
    if (url.startsWith(ORIGIN)) {
      const back = new URL(url);
      return { jar, callback: back.pathname + back.search, before: jar.header() };
    }
    let res = await fetch(url, { redirect: 'manual', headers: { cookie: providerJar.header() } });
    providerJar.store(res);
    if (res.status === 200) {
      // The provider's login page: sign in as the account.
      const action = /action="([^"]+)"/.exec(await res.text())?.[1];
      expect(action).toBeTruthy();
      const target = new URL(action!.replace(/&amp;/g, '&'), url).href;
      res = await fetch(target, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: providerJar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' }),
      });
      providerJar.store(res);
    }
    expect([302, 303]).toContain(res.status);
    url = new URL(res.headers.get('location')!, url).href;
  }
  throw new Error('the provider never sent the browser back');
}

/** The whole sign-in: to the provider and back to Sugu's callback. */
async function signInWith(app: App, accountId: string, jar = new CookieJar(), startPath?: string) {
  const journey = await toProvider(app, accountId, jar, startPath);
  const res = await app.fetch(journey.callback, { cookie: jar.header() });
  jar.store(res);
  return { ...journey, res };
}

async function me(app: App, jar: CookieJar) {
  const res = await app.fetch('/api/me', { cookie: jar.header() });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as { id: number; email: string; email_verified: boolean }) : null };
}

const account = (claims: ProviderAccount) => provider.account(claims);

/** The account page in English, and its 「ログイン連携」 section. */
async function accountPage(app: App, jar: CookieJar) {
  const res = await app.fetch('/account-info', { cookie: jar.header(), headers: { 'accept-language': 'en' } });
  expect(res.status).toBe(200);
  const html = await res.text();
  return { html, ways: /data-testid="signin-ways"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '' };
}

/** The leave page's link on to the provider. */
async function continueLink(res: Response): Promise<string> {
  const html = await res.text();
  const href = /data-testid="leave-continue"[\s\S]*?<a href="([^"]+)"/.exec(html)?.[1];
  expect(href).toBeTruthy();
  return href!.replace(/&amp;/g, '&');
}

const unlink = (app: App, jar: CookieJar, provider: string) =>
  app.fetch('/account-info', {
    method: 'POST',
    cookie: jar.header(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
    body: new URLSearchParams({ intent: 'oidc-unlink', provider }),
  });

forEachApp(
  'sign-in with an OpenID provider',
  (app) => {
    it('offers 「LINEでログイン」 on the sign-in page', async () => {
      const html = await (await app().fetch('/auth/signin', { headers: { 'accept-language': 'ja' } })).text();
      expect(html).toContain('LINEでログイン');
      expect(html).toContain('href="/auth/oidc/line"');
      // The spec's 「または次の方法でログイン」 now leads to the providers; the demo account has its own label.
      // (Matched as drawn text, not in the island's serialised labels.)
      expect(html).toMatch(/>または次の方法でログイン<[\s\S]*>LINEでログイン<[\s\S]*>お試し用<[\s\S]*>デモアカウント/);
    });

    it('a provider account with a verified address: a new verified account, signed in, and the same one next time', async () => {
      const email = uniqueEmail('line');
      const id = account({ email, email_verified: true, name: 'ライン 花子' });
      const first = await signInWith(app(), id);
      expect(first.res.status).toBe(303);
      expect(first.res.headers.get('location')).toBe('/home');
      const mine = await me(app(), first.jar);
      expect(mine.body).toMatchObject({ email, email_verified: true });
      const again = await signInWith(app(), id);
      expect((await me(app(), again.jar)).body?.id).toBe(mine.body!.id);
      // Neither the code nor the state is in what the server printed.
      const code = new URL(first.callback, ORIGIN).searchParams.get('code')!;
      expect(app().output()).not.toContain(code);
    });

    it('the verified address of an existing account links only after that account signs in with its password', async () => {
      const owner = await signUp(app());
      const id = account({ email: owner.email, email_verified: true });
      const first = await signInWith(app(), id);
      expect(first.res.status).toBe(303);
      expect(first.res.headers.get('location')).toBe('/auth/signin?link=line');
      expect((await me(app(), first.jar)).status).toBe(401);
      const page = await (await app().fetch('/auth/signin?link=line', { cookie: first.jar.header(), headers: { 'accept-language': 'ja' } })).text();
      expect(page).toContain('パスワードでログインすると、LINEと連携されます');
      // Still not linked: the provider alone signs no one in to the account.
      const meanwhile = await signInWith(app(), id);
      expect(meanwhile.res.headers.get('location')).toBe('/auth/signin?link=line');
      const login = await app().fetch('/api/login', { method: 'POST', cookie: first.jar.header(), json: { email: owner.email, password: owner.password } });
      expect(login.status).toBe(200);
      const linked = await signInWith(app(), id);
      expect(linked.res.status).toBe(303);
      expect((await me(app(), linked.jar)).body?.id).toBe(owner.userId);
    });

    it('an address the provider has not verified: an account of its own, never the existing one', async () => {
      const owner = await signUp(app());
      const id = account({ email: owner.email, email_verified: false });
      const { res, jar } = await signInWith(app(), id);
      expect(res.status).toBe(303);
      const mine = (await me(app(), jar)).body!;
      expect(mine.id).not.toBe(owner.userId);
      // No address at all: the provider's unverified one is not taken, and none is made up.
      expect(mine.email).toBe('');
      expect(mine.email_verified).toBe(false);
    });

    it('a provider account linked to another account is refused to a signed-in diner', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const first = await signInWith(app(), id);
      const firstId = (await me(app(), first.jar)).body!.id;
      const other = await signUp(app());
      const journey = await signInWith(app(), id, other.jar);
      const res = journey.res;
      expect(res.status).toBe(409);
      const text = await res.text();
      expect(text).toContain('This LINE account is already linked to another Sugu account.');
      // The page keeps nothing of the callback's address (its code and state).
      const code = new URL(journey.callback, ORIGIN).searchParams.get('code')!;
      expect(text).not.toContain(code);
      expect((await me(app(), other.jar)).body?.id).toBe(other.userId);
      expect(firstId).not.toBe(other.userId);
    });

    it('a wrong state, or none, is refused and signs no one in', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const journey = await toProvider(app(), id);
      const forged = journey.callback.replace(/state=[^&]+/, 'state=forged');
      const res = await app().fetch(forged, { cookie: journey.jar.header() });
      expect(res.status).toBe(400);
      // Another browser (no state cookie) with the real callback.
      const elsewhere = await app().fetch(journey.callback);
      expect(elsewhere.status).toBe(400);
      expect((await me(app(), journey.jar.store(res))).status).toBe(401);
    });

    it('a state answers once, and a code spent once is refused by the provider', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const first = await signInWith(app(), id);
      expect(first.res.status).toBe(303);
      // The same callback with the cookie it had: the state is spent.
      const replay = await app().fetch(first.callback, { cookie: first.before });
      expect(replay.status).toBe(400);
      // The spent code under a fresh state of this browser: the provider refuses it.
      const fresh = await toProvider(app(), id);
      const code = new URL(first.callback, ORIGIN).searchParams.get('code')!;
      const withOldCode = fresh.callback.replace(/code=[^&]+/, `code=${encodeURIComponent(code)}`);
      const res = await app().fetch(withOldCode, { cookie: fresh.jar.header() });
      expect(res.status).toBe(400);
      expect((await me(app(), fresh.jar.store(res))).status).toBe(401);
    });

    it('too many sign-in steps from one address: 429 with a translated page, other addresses unaffected', async () => {
      // Another source address, so the other tests' sign-ins from 127.0.0.1 are not counted here.
      const from = '127.0.0.5';
      const step = (path: string) => rawRequest(app(), { path, from, headers: { 'accept-language': 'en' } });
      // LIMITS.oidcPerIp: 60 steps (starts and callbacks) per 10 minutes.
      for (let i = 0; i < 60; i++) expect((await step('/auth/oidc/line')).status).toBe(302);
      for (const path of ['/auth/oidc/line', '/auth/oidc/line/callback?code=x&state=y']) {
        const limited = await step(path);
        expect(limited.status).toBe(429);
        expect(limited.body).toContain('Too many requests. Please try again later.');
        expect(limited.body).toContain('href="/auth/signin"');
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(limited.headers.location).toBeUndefined();
      }
      // This machine's usual address still signs in.
      const { res } = await signInWith(app(), account({ email: uniqueEmail('line'), email_verified: true }));
      expect(res.status).toBe(303);
    });

    it('an ID token signed by a key the provider does not publish is refused', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      provider.forge(true);
      try {
        const { res, jar } = await signInWith(app(), id);
        expect(res.status).toBe(400);
        expect((await me(app(), jar)).status).toBe(401);
      } finally {
        provider.forge(false);
      }
      // The same account through the real provider signs in.
      const { res } = await signInWith(app(), id);
      expect(res.status).toBe(303);
    });
  },
  { ...oidcEnv(port), PUBLIC_ORIGIN: ORIGIN },
);

// Servers of their own: every provider sign-in counts against this machine's address (LIMITS.oidcPerIp).
forEachApp(
  'the account page: providers linked, linking and unlinking',
  (app) => {
    it('the account page links LINE to a signed-in account, lists it, and unlinks it (the password stays a way in)', async () => {
      const owner = await signUp(app());
      const before = await accountPage(app(), owner.jar);
      expect(before.ways).toContain('href="/auth/oidc/line?next=%2Faccount-info"');
      expect(before.ways).toContain('Link LINE');
      expect(before.ways).not.toContain('data-testid="signin-way"');
      // The link is the provider sign-in started while signed in: it links and comes back here.
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const { res } = await signInWith(app(), id, owner.jar, '/auth/oidc/line?next=%2Faccount-info');
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account-info');
      const linked = await accountPage(app(), owner.jar);
      expect(linked.html).toContain('Linked to LINE.');
      expect(linked.ways).toMatch(/data-provider="line"[\s\S]*Linked[\s\S]*Unlink LINE/);
      expect(linked.ways).not.toContain('Link LINE');
      // LINE now signs in to this very account.
      expect((await me(app(), (await signInWith(app(), id)).jar)).body?.id).toBe(owner.userId);

      const gone = await unlink(app(), owner.jar, 'line');
      expect(gone.status).toBe(303);
      owner.jar.store(gone);
      const after = await accountPage(app(), owner.jar);
      expect(after.html).toContain('LINE is no longer linked to this account.');
      expect(after.ways).not.toContain('data-testid="signin-way"');
      // The provider account is no one's now: signing in with it makes a new account.
      const fresh = await signInWith(app(), id);
      expect((await me(app(), fresh.jar)).body?.id).not.toBe(owner.userId);
      // Nothing linked: unlinking again is refused, by name, and changes nothing.
      const again = await unlink(app(), owner.jar, 'line');
      expect(again.status).toBe(400);
      expect(await again.text()).toContain('This service is not linked to this account.');
      expect((await unlink(app(), owner.jar, 'myspace')).status).toBe(400);
    });

    it('an account made without a verified address shows none, and its diner adds one and verifies it', async () => {
      const id = account({ name: 'ライン 次郎' });
      const { jar } = await signInWith(app(), id);
      expect((await me(app(), jar)).body).toMatchObject({ email: '', email_verified: false });
      const page = await accountPage(app(), jar);
      expect(page.html).not.toContain('.invalid');
      // An empty value (Astro writes it as a bare attribute).
      expect(page.html).toMatch(/<input[^>]*name="email"[^>]*\svalue[\s>]/);
      expect(page.html).toContain('None yet. Add one and we will send a link to confirm it.');
      expect(page.html).toContain('No e-mail address yet');
      // Other pages ask for an address too, and link to where it is added.
      const bookings = await (await app().fetch('/booking-list', { cookie: jar.header(), headers: { 'accept-language': 'en' } })).text();
      expect(bookings).not.toContain('.invalid');
      expect(bookings).toMatch(/<a href="\/account-info"[^>]*>Add an e-mail address</);
      const post = (fields: Record<string, string>) =>
        app().fetch('/account-info', {
          method: 'POST',
          cookie: jar.header(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
          body: new URLSearchParams(fields),
        });
      // The profile saves with the address left empty…
      expect((await post({ name: 'ライン 次郎', name_kana: '', phone: '', email: '' })).status).toBe(303);
      expect((await me(app(), jar)).body).toMatchObject({ email: '', email_verified: false });
      // …refuses a bad one by name, keeping what was typed…
      const bad = await post({ name: 'ライン 次郎', name_kana: '', phone: '', email: 'not-an-address' });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('value="not-an-address"');
      // …and adds a real one, mailed its verification link.
      const email = uniqueEmail('added');
      expect((await post({ name: 'ライン 次郎', name_kana: '', phone: '', email })).status).toBe(303);
      expect((await me(app(), jar)).body).toMatchObject({ email, email_verified: false });
      await verifyEmail(app(), await verificationToken(app(), email));
      expect((await me(app(), jar)).body).toMatchObject({ email, email_verified: true });
      expect((await accountPage(app(), jar)).html).not.toContain('No e-mail address yet');
    });

    it('an account without a password leaves by signing in to its provider afresh, and only with the linked account', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const { jar } = await signInWith(app(), id);
      const mine = (await me(app(), jar)).body!;
      const page = await (await app().fetch('/user-leave-association', { cookie: jar.header(), headers: { 'accept-language': 'en' } })).text();
      expect(page).toContain('This account has no password.');
      expect(page).toContain('Confirm with LINE and leave');
      expect(page).not.toContain('name="password"');
      const leave = (fields: Record<string, string>) =>
        app().fetch('/user-leave-association', {
          method: 'POST',
          cookie: jar.header(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
          body: new URLSearchParams(fields),
        });
      // Not confirmed, or a provider not linked: refused by name, nothing started.
      const unconfirmed = await leave({ provider: 'line' });
      expect(unconfirmed.status).toBe(400);
      expect(await unconfirmed.text()).toContain('id="f-confirm-error"');
      expect((await leave({ provider: 'google', confirm: 'on' })).status).toBe(400);
      // Confirmed: a link on to the provider (a form's answer may not lead to another site), which
      // is asked for a fresh sign-in.
      const started = await leave({ provider: 'line', confirm: 'on' });
      expect(started.status).toBe(200);
      jar.store(started);
      const to = new URL(await continueLink(started));
      expect(to.href.startsWith(`${issuer}/auth?`)).toBe(true);
      expect(to.searchParams.get('prompt')).toBe('login');
      expect(to.searchParams.get('max_age')).toBe('0');
      // Someone else's LINE account at hand: refused, and the account stays.
      const other = account({ email: uniqueEmail('line'), email_verified: true });
      const wrong = await followProvider(to.href, other, jar);
      const refused = await app().fetch(wrong.callback, { cookie: jar.header(), headers: { 'accept-language': 'en' } });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('You have not left');
      jar.store(refused);
      expect((await me(app(), jar)).body?.id).toBe(mine.id);
      // The linked LINE account, signed in afresh: the account is gone and the diner signed out.
      const again = await leave({ provider: 'line', confirm: 'on' });
      jar.store(again);
      const right = await followProvider(await continueLink(again), id, jar);
      const done = await app().fetch(right.callback, { cookie: jar.header(), headers: { 'accept-language': 'en' } });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe('/home');
      jar.store(done);
      expect((await me(app(), jar)).status).toBe(401);
      // LINE now makes a new account.
      expect((await me(app(), (await signInWith(app(), id)).jar)).body?.id).not.toBe(mine.id);
    });

    it('DELETE /api/me of an account without a password answers the provider sign-in to follow, whose callback completes the leave', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const { jar } = await signInWith(app(), id);
      const mine = (await me(app(), jar)).body!;
      const del = (json: Record<string, unknown>, lang = 'en') =>
        app().fetch('/api/me', { method: 'DELETE', cookie: jar.header(), headers: { 'accept-language': lang }, json });
      // Not confirmed, or a provider not linked: refused by field, nothing started.
      const unconfirmed = await del({});
      expect(unconfirmed.status).toBe(400);
      expect(((await unconfirmed.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty('confirm');
      const notLinked = await del({ provider: 'google', confirm: true });
      expect(notLinked.status).toBe(400);
      expect(await notLinked.json()).toMatchObject({ error: { code: 'bad_request', fields: { provider: 'This service is not linked to this account.' } } });
      expect(notLinked.headers.getSetCookie().some((c) => c.startsWith('sugu_oidc='))).toBe(false);
      // A password is no way in for it: still the provider, and nothing deleted.
      const withPassword = await del({ password: 'any-password-at-all', confirm: true }, 'ja');
      expect(withPassword.status).toBe(403);
      const body = (await withPassword.json()) as { error: { code: string; message: string; reauth_url: string; provider: string } };
      expect(body.error).toMatchObject({ code: 'reauth_required', message: 'LINEでもう一度ログインすると、退会が完了します。', provider: 'line' });
      expect((await me(app(), jar)).body?.id).toBe(mine.id);
      // The answer started a fresh sign-in at the provider for this browser (its state cookie).
      jar.store(withPassword);
      expect(jar.get('sugu_oidc')).toBeTruthy();
      const to = new URL(body.error.reauth_url);
      expect(to.href.startsWith(`${issuer}/auth?`)).toBe(true);
      expect(to.searchParams.get('prompt')).toBe('login');
      expect(to.searchParams.get('max_age')).toBe('0');
      // Someone else's LINE account at hand: refused, and the account stays.
      const wrong = await followProvider(to.href, account({ email: uniqueEmail('line'), email_verified: true }), jar);
      const refused = await app().fetch(wrong.callback, { cookie: jar.header(), headers: { 'accept-language': 'en' } });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('You have not left');
      jar.store(refused);
      expect((await me(app(), jar)).body?.id).toBe(mine.id);
      // Asked again and followed with the linked LINE account: the account is gone and the diner signed out.
      const again = await del({ provider: 'line', confirm: true });
      expect(again.status).toBe(403);
      jar.store(again);
      const right = await followProvider(((await again.json()) as { error: { reauth_url: string } }).error.reauth_url, id, jar);
      const done = await app().fetch(right.callback, { cookie: jar.header() });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe('/home');
      jar.store(done);
      expect((await me(app(), jar)).status).toBe(401);
      expect((await me(app(), (await signInWith(app(), id)).jar)).body?.id).not.toBe(mine.id);
    });

    it('DELETE /api/me of an account with a password still needs the password, whatever provider is linked', async () => {
      const user = await signUp(app());
      const jar = user.jar;
      await signInWith(app(), account({ email: uniqueEmail('line'), email_verified: true }), jar);
      const missing = await app().fetch('/api/me', {
        method: 'DELETE',
        cookie: jar.header(),
        headers: { 'accept-language': 'en' },
        json: { provider: 'line', confirm: true },
      });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: { code: 'validation_failed', fields: { password: expect.stringContaining('Password') } } });
      expect(missing.headers.getSetCookie().some((c) => c.startsWith('sugu_oidc='))).toBe(false);
      expect((await me(app(), jar)).body?.id).toBe(user.userId);
      const done = await app().fetch('/api/me', { method: 'DELETE', cookie: jar.header(), json: { password: user.password, confirm: true } });
      expect(done.status).toBe(204);
      expect((await me(app(), jar)).status).toBe(401);
    });

    it('a leave started by one account is not finished in another browser, nor by a plain sign-in callback', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const { jar } = await signInWith(app(), id);
      const mine = (await me(app(), jar)).body!;
      const started = await app().fetch('/user-leave-association', {
        method: 'POST',
        cookie: jar.header(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ provider: 'line', confirm: 'on' }),
      });
      jar.store(started);
      const journey = await followProvider(await continueLink(started), id, jar);
      // The callback in a browser without this one's session (only its state cookie): nothing deleted.
      const stateCookie = /(?:^|; )(sugu_oidc=[^;]+)/.exec(jar.header())![1]!;
      expect((await app().fetch(journey.callback, { cookie: stateCookie })).status).toBe(400);
      expect((await me(app(), jar)).body?.id).toBe(mine.id);
    });

    it('the only way in of an account a provider made is not unlinked', async () => {
      const id = account({ email: uniqueEmail('line'), email_verified: true });
      const { jar } = await signInWith(app(), id);
      const mine = (await me(app(), jar)).body!;
      const refused = await unlink(app(), jar, 'line');
      expect(refused.status).toBe(409);
      expect(await refused.text()).toContain('LINE is the only way to sign in to this account, so it cannot be unlinked.');
      expect((await accountPage(app(), jar)).ways).toContain('Unlink LINE');
      expect((await me(app(), (await signInWith(app(), id)).jar)).body?.id).toBe(mine.id);
      // Nor can it be signed in to with any password (it has none).
      const login = await app().fetch('/api/login', { method: 'POST', json: { email: mine.email, password: 'any-password-at-all' } });
      expect(login.status).toBe(401);
    });
  },
  { ...oidcEnv(port), PUBLIC_ORIGIN: ORIGIN },
);

forEachApp(
  'sign-in without a provider configured',
  (app) => {
    it('shows no provider and has no provider route', async () => {
      const html = await (await app().fetch('/auth/signin', { headers: { 'accept-language': 'ja' } })).text();
      expect(html).not.toContain('LINEでログイン');
      // The spec's 「または次の方法でログイン」 stays, heading the demo account under its own label.
      expect(html).toMatch(/>または次の方法でログイン<[\s\S]*>お試し用<[\s\S]*>デモアカウント/);
      expect((await app().fetch('/auth/oidc/line')).status).toBe(404);
    });
  },
  {},
  { shared: true },
);
