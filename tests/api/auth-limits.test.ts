/**
 * Account limits over HTTP on both engines. Several clients on one machine: a connection from
 * 127.0.0.2 or 127.0.0.3 reaches the server on 127.0.0.1 from another address.
 */
import { beforeAll, expect, it } from 'vitest';
import { forEachApp, type App } from '../helpers/app';
import { signIn, signUp, uniqueEmail, type SignedUp } from '../helpers/auth';
import { rawRequest } from '../helpers/raw';

type Envelope = { error: { code: string; message: string } };
const login = (email: string, password: string) => ({ method: 'POST', headers: { 'accept-language': 'en' }, json: { email, password } });

/** POST /api/login from another source address. */
const loginFrom = (app: App, from: string, email: string, password: string) =>
  rawRequest(app, {
    method: 'POST',
    path: '/api/login',
    from,
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ email, password }),
  });

// One app per engine: these tests share its counters, and the per-IP test runs last because it
// slows every sign-in from this test's address.
forEachApp('abuse limits', (app) => {
  // Made first: the sign-up test below uses up this address's sign-ups.
  let spare: SignedUp;
  beforeAll(async () => {
    spare = await signUp(app());
  });

  it('lets the owner sign in from elsewhere while an attacker keeps failing on the account', async () => {
    const owner = await signUp(app());
    for (let i = 0; i < 10; i++) expect((await app().fetch('/api/login', login(owner.email, `wrong-${i}-password`))).status).toBe(401);
    // The attacking address is stopped on this account, even if it guesses right…
    const blocked = await app().fetch('/api/login', login(owner.email.toUpperCase(), owner.password));
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as Envelope).error).toEqual({ code: 'rate_limited', message: 'Too many requests. Please try again later.' });
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // …while the owner, from another address, signs in at once, during the attack and after it.
    const fromHome = await loginFrom(app(), '127.0.0.2', owner.email, owner.password);
    expect(fromHome.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await app().fetch('/api/login', login(owner.email, `still-wrong-${i}`))).status).toBe(429);
    expect((await loginFrom(app(), '127.0.0.3', owner.email, owner.password)).status).toBe(200);
    // Another account from the attacking address is unaffected, and the open session still works.
    const other = await signUp(app());
    await signIn(app(), other.email, other.password);
    expect((await app().fetch('/api/me', { cookie: owner.jar.header() })).status).toBe(200);
  });

  it('ignores X-Forwarded-For from a client when no proxy is trusted: rotating it does not reset the count', async () => {
    const u = await signUp(app());
    const spoofed = (i: number) =>
      rawRequest(app(), {
        method: 'POST',
        path: '/api/login',
        from: '127.0.0.4',
        headers: { 'content-type': 'application/json', origin: app().url, 'x-forwarded-for': `203.0.113.${i + 1}` },
        body: JSON.stringify({ email: u.email, password: `wrong-${i}-password` }),
      });
    for (let i = 0; i < 10; i++) expect((await spoofed(i)).status).toBe(401);
    expect((await spoofed(99)).status).toBe(429);
    expect(app().output()).toContain('"msg":"proxy_header_ignored"');
  });

  it('counts an unknown address the same way, so a 429 reveals nothing', async () => {
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 10; i++) expect((await app().fetch('/api/login', login(nobody, 'whatever-pass'))).status).toBe(401);
    expect((await app().fetch('/api/login', login(nobody, 'whatever-pass'))).status).toBe(429);
  });

  it('a successful sign-in clears the failures of that address on that account', async () => {
    const u = await signUp(app());
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expect((await app().fetch('/api/login', login(u.email, 'not-the-one-1'))).status).toBe(401);
      await signIn(app(), u.email, u.password);
    }
  });

  it('limits reset requests per address with 429 and Retry-After', async () => {
    const email = uniqueEmail('reset');
    for (let i = 0; i < 5; i++) expect((await app().fetch('/api/password/forgot', { method: 'POST', json: { email } })).status).toBe(202);
    const blocked = await app().fetch('/api/password/forgot', { method: 'POST', json: { email } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await app().fetch('/api/password/forgot', { method: 'POST', json: { email: uniqueEmail('reset') } })).status).toBe(202);
  });

  it('allows at least 30 sign-up attempts per IP in 10 minutes, then answers 429', async () => {
    const taken = await signUp(app());
    // This file has made some sign-ups already; attempts on a taken address count too (answered 201 as new ones).
    let status = 0;
    let attempts = 0;
    for (; attempts < 60; attempts++) {
      status = (await app().fetch('/api/users', { method: 'POST', json: { name: 'A', email: taken.email, password: 'long-enough-1', agree: true } })).status;
      if (status !== 201) break;
    }
    expect(status).toBe(429);
    expect(attempts).toBeGreaterThanOrEqual(30);
  });

  it('slows an address failing on many accounts to one try every 10 s, without shutting it out or touching other addresses', async () => {
    const owner = spare;
    let status = 0;
    for (let i = 0; i < 60 && status !== 429; i++) {
      status = (await app().fetch('/api/login', login(uniqueEmail('spray'), 'spray-password'))).status;
    }
    expect(status).toBe(429);
    const res = await app().fetch('/api/login', login(owner.email, owner.password));
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(10);
    expect((await loginFrom(app(), '127.0.0.2', owner.email, owner.password)).status).toBe(200);
  });
});
