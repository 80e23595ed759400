import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { signIn, signUp, uniqueEmail } from '../helpers/auth';

type Envelope = { error: { code: string; message: string } };
const login = (email: string, password: string) => ({ method: 'POST', headers: { 'accept-language': 'en' }, json: { email, password } });

// One app per engine: these tests share its counters, and the per-IP login limit runs last
// because once it trips, every sign-in from this test's address waits out the window.
forEachApp('abuse limits', (app) => {
  it('blocks an address after 10 failed sign-ins with 429 and Retry-After, even with the right password', async () => {
    const u = await signUp(app());
    for (let i = 0; i < 10; i++) expect((await app().fetch('/api/login', login(u.email, `wrong-${i}-password`))).status).toBe(401);
    const blocked = await app().fetch('/api/login', login(u.email.toUpperCase(), u.password));
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as Envelope).error).toEqual({ code: 'rate_limited', message: 'Too many requests. Please try again later.' });
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // Another address from the same IP is unaffected, and the session already open still works.
    const other = await signUp(app());
    await signIn(app(), other.email, other.password);
    expect((await app().fetch('/api/me', { cookie: u.jar.header() })).status).toBe(200);
  });

  it('counts an unknown address the same way, so a 429 reveals nothing', async () => {
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 10; i++) expect((await app().fetch('/api/login', login(nobody, 'whatever-pass'))).status).toBe(401);
    expect((await app().fetch('/api/login', login(nobody, 'whatever-pass'))).status).toBe(429);
  });

  it('a successful sign-in clears the failures of that address', async () => {
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
    // This file has made some sign-ups already; attempts on a taken address count too (409).
    let status = 0;
    let attempts = 0;
    for (; attempts < 60; attempts++) {
      status = (await app().fetch('/api/users', { method: 'POST', json: { name: 'A', email: taken.email, password: 'long-enough-1', agree: true } })).status;
      if (status !== 409) break;
    }
    expect(status).toBe(429);
    expect(attempts).toBeGreaterThanOrEqual(30);
  });

  it('blocks an IP after 50 failed sign-ins across addresses', async () => {
    let status = 0;
    for (let i = 0; i < 60 && status !== 429; i++) {
      status = (await app().fetch('/api/login', login(uniqueEmail('spray'), 'spray-password'))).status;
    }
    expect(status).toBe(429);
    const res = await app().fetch('/api/login', login(uniqueEmail('fresh'), 'fresh-password'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
