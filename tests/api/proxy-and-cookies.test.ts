/**
 * Behind a reverse proxy (TRUST_PROXY) and behind TLS (PUBLIC_ORIGIN https), on both engines:
 * the client's address comes from the proxy's header only on connections from a trusted proxy,
 * and every cookie is Secure, with HSTS, exactly when the browser is on https.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, startApp, type App } from '../helpers/app';
import { signUp } from '../helpers/auth';
import { rawRequest } from '../helpers/raw';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

const PROXY = '127.0.0.1';

/** Set-Cookie lines that set a value (a deletion carries no value and an expiry in the past). */
const setting = (lines: string[]) => lines.filter((l) => !/^[^=]+=;/.test(l) && !/expires=Thu, 01 Jan 1970/i.test(l));

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`behind a trusted proxy [${engine}]`, () => {
    let app: App;
    beforeAll(async () => {
      app = await startApp(engine, { TRUST_PROXY: `${PROXY}, 10.0.0.0/8` });
    });
    afterAll(() => app?.stop());

    const loginVia = (email: string, password: string, headers: Record<string, string>, from?: string) =>
      rawRequest(app, {
        method: 'POST',
        path: '/api/login',
        from,
        headers: { 'content-type': 'application/json', origin: app.url, ...headers },
        body: JSON.stringify({ email, password }),
      });

    it('takes the client from X-Forwarded-For: the owner signs in while an attacker behind the same proxy is stopped', async () => {
      const owner = await signUp(app);
      for (let i = 0; i < 10; i++) expect((await loginVia(owner.email, `wrong-${i}`, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(401);
      expect((await loginVia(owner.email, owner.password, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
      expect((await loginVia(owner.email, owner.password, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200);
    });

    it('believes the header only back to the first address that is not a trusted proxy', async () => {
      const u = await signUp(app);
      // What the client wrote comes first; the proxies append what they saw (10.1.2.3 is a trusted inner proxy).
      for (let i = 0; i < 10; i++) {
        expect((await loginVia(u.email, `wrong-${i}`, { 'x-forwarded-for': `6.6.6.${i}, 203.0.113.50, 10.1.2.3` })).status).toBe(401);
      }
      expect((await loginVia(u.email, u.password, { 'x-forwarded-for': '6.6.6.200, 203.0.113.50, 10.1.2.3' })).status).toBe(429);
      expect((await loginVia(u.email, u.password, { 'x-forwarded-for': '203.0.113.51' })).status).toBe(200);
    });

    it('ignores the header on a connection that is not from a trusted proxy, and ignores the other header', async () => {
      const u = await signUp(app);
      for (let i = 0; i < 10; i++) {
        expect((await loginVia(u.email, `wrong-${i}`, { 'x-forwarded-for': `198.51.100.${i}` }, '127.0.0.2')).status).toBe(401);
      }
      expect((await loginVia(u.email, u.password, { 'x-forwarded-for': '198.51.100.99' }, '127.0.0.2')).status).toBe(429);
      // PROXY_HEADER is X-Forwarded-For: a Forwarded header the proxy let through proves nothing.
      const v = await signUp(app);
      for (let i = 0; i < 10; i++) {
        expect((await loginVia(v.email, `wrong-${i}`, { forwarded: `for=192.0.2.${i}`, 'x-forwarded-for': '203.0.113.60' })).status).toBe(401);
      }
      expect((await loginVia(v.email, v.password, { forwarded: 'for=192.0.2.200', 'x-forwarded-for': '203.0.113.60' })).status).toBe(429);
    });

    it('makes cookies Secure and sends HSTS when the trusted proxy says https, and only then', async () => {
      const post = (headers: Record<string, string>, from?: string) =>
        rawRequest(app, {
          method: 'POST',
          path: '/preferences',
          from,
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, ...headers },
          body: 'theme=dark&locale=ja&back=/home',
        });
      const https = await post({ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
      const lines = setting([https.headers['set-cookie'] ?? []].flat());
      expect(lines.length).toBeGreaterThanOrEqual(3); // locale, theme, flash
      for (const line of lines) expect(line).toMatch(/;\s*Secure/i);
      expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      for (const [headers, from] of [
        [{ 'x-forwarded-proto': 'http' }, undefined],
        [{}, undefined],
        [{ 'x-forwarded-proto': 'https' }, '127.0.0.2'],
      ] as const) {
        const plain = await post(headers, from);
        const set = setting([plain.headers['set-cookie'] ?? []].flat());
        expect(set.length).toBeGreaterThanOrEqual(3);
        for (const line of set) expect([headers, from, line]).toEqual([headers, from, expect.not.stringMatching(/;\s*Secure/i)]);
        expect(plain.headers['strict-transport-security']).toBeUndefined();
      }
    });
  });

  describe(`served over https (PUBLIC_ORIGIN) [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, { PUBLIC_ORIGIN: 'https://sugu.example' }));
    });
    afterAll(() => cleanup?.());

    it('makes every cookie Secure, on every route that sets one, and sends HSTS on pages and the API', async () => {
      const seen: string[] = [];
      const collect = (res: Response) => {
        const lines = setting(res.headers.getSetCookie());
        seen.push(...lines);
        return lines;
      };
      const form = (body: Record<string, string>) => ({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
      const u = await signUp(app);
      collect(
        await app.fetch('/api/users', {
          method: 'POST',
          json: { name: '安全 太郎', email: `secure-${engine}-${Date.now()}@example.jp`, password: 'long-enough-pass-1', agree: true },
        }),
      );
      collect(await app.fetch('/api/login', { method: 'POST', json: { email: u.email, password: u.password } }));
      collect(await app.fetch('/auth/signin', form({ email: u.email, password: u.password })));
      collect(
        await app.fetch(
          '/auth/signup',
          form({ name: '安全 花子', email: `secure2-${engine}-${Date.now()}@example.jp`, password: 'long-enough-pass-2', agree: 'on' }),
        ),
      );
      collect(await app.fetch('/preferences', form({ theme: 'dark', locale: 'en', back: '/home' })));
      collect(await app.fetch('/account-info', { ...form({ name: '安全 次郎', email: u.email }), cookie: u.jar.header() }));
      const guest = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          store_id: fx.storeId,
          start: tokyoStart(6, 12),
          party_size: 2,
          name: '山田 花子',
          name_kana: 'ヤマダ ハナコ',
          phone: '090-1234-5678',
          email: 'secure-guest@example.jp',
        },
      });
      expect(guest.status).toBe(201);
      expect(collect(guest).length).toBeGreaterThanOrEqual(2);
      const booked = (await guest.json()) as { id: number; edit_token: string };
      collect(await app.fetch(`/store/${fx.storeId}/booking-without/edit/${booked.id}?token=${encodeURIComponent(booked.edit_token)}`));
      const names = new Set(seen.map((l) => l.slice(0, l.indexOf('='))));
      for (const name of ['example', 'locale', 'theme', 'flash', 'sugu_guest', 'sugu_guest_page', 'sugu_device']) expect([...names]).toContain(name);
      for (const line of seen) expect(line).toMatch(/;\s*Secure/i);
      // One rule: HttpOnly everywhere except what a script reads.
      for (const line of seen.filter((l) => !/^(locale|theme)=/.test(l))) expect(line).toMatch(/;\s*HttpOnly/i);
      for (const path of ['/home', '/api/areas', '/no/such/page']) {
        const res = await app.fetch(path);
        expect([path, res.headers.get('strict-transport-security')]).toEqual([path, expect.stringMatching(/max-age=31536000/)]);
        await res.body?.cancel();
      }
      expect(new CookieJar().store(guest).get('sugu_guest')).toBeTruthy();
    });
  });
}
