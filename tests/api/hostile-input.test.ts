/**
 * Input an attacker sends on purpose, against the real server (as `npm start` runs it) on both
 * engines: NUL bytes, ids past the integer range, TRACE, bad %-encoding, oversized headers,
 * invalid UTF-8, cross-site writes, aborted uploads. Each must be a clear 4xx — the JSON envelope
 * under /api — and never a 500.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../helpers/app';
import { rawRequest } from '../helpers/raw';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

type Envelope = { error: { code: string; message: string; fields?: Record<string, string> } };
const NUL = '\u0000';
const en = { 'accept-language': 'en' };

async function envelope(res: Response): Promise<Envelope['error']> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return ((await res.json()) as Envelope).error;
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`hostile input [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    let bookingId: number;
    const guest = () => ({
      store_id: fx.storeId,
      start: tokyoStart(4, 15),
      party_size: 2,
      name: '山田 花子',
      name_kana: 'ヤマダ ハナコ',
      phone: '090-1234-5678',
      email: 'hanako@example.jp',
    });

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
      const res = await app.fetch('/api/bookings', {
        method: 'POST',
        cookie: fx.users[0]!.cookie,
        json: { store_id: fx.storeId, start: tokyoStart(5, 13), party_size: 2 },
      });
      expect(res.status).toBe(201);
      bookingId = ((await res.json()) as { id: number }).id;
    });
    afterAll(() => cleanup?.());

    it('refuses a NUL byte in every string field and query with 400 naming the field', async () => {
      const cookie = fx.users[0]!.cookie;
      const cases: Array<[string, string, string, Record<string, unknown> | null, string | undefined]> = [
        ['POST', '/api/guest-bookings', 'name', { ...guest(), name: `山田${NUL}` }, undefined],
        ['POST', '/api/guest-bookings', 'name_kana', { ...guest(), name_kana: `ヤマダ${NUL}` }, undefined],
        ['POST', '/api/guest-bookings', 'phone', { ...guest(), phone: `09012345678${NUL}` }, undefined],
        ['POST', '/api/guest-bookings', 'email', { ...guest(), email: `hanako${NUL}@example.jp` }, undefined],
        ['POST', '/api/guest-bookings', 'note', { ...guest(), note: `窓際${NUL}` }, undefined],
        ['POST', '/api/bookings', 'note', { store_id: fx.storeId, start: tokyoStart(5, 17), party_size: 2, note: NUL }, cookie],
        ['PATCH', `/api/bookings/${bookingId}`, 'note', { note: `a${NUL}b` }, cookie],
        ['POST', '/api/login', 'email', { email: `a${NUL}@example.jp`, password: 'whatever-123' }, undefined],
        ['POST', '/api/login', 'password', { email: 'a@example.jp', password: `pass${NUL}word` }, undefined],
        ['POST', '/api/users', 'name', { name: `太郎${NUL}`, email: 'nul-user@example.jp', password: 'long-enough-1', agree: true }, undefined],
        ['POST', '/api/password/forgot', 'email', { email: `${NUL}a@example.jp` }, undefined],
        ['POST', '/api/password/reset', 'token', { token: `abc${NUL}`, password: 'long-enough-1' }, undefined],
        ['PATCH', '/api/me', 'name', { name: `花子${NUL}` }, cookie],
        ['PATCH', '/api/me', 'name_kana', { name_kana: `ハナコ${NUL}` }, cookie],
        ['PATCH', '/api/me', 'phone', { phone: `0312345678${NUL}` }, cookie],
        ['GET', '/api/stores?name=%00', 'name', null, undefined],
        ['GET', '/api/stores?name=%E7%84%BC%00', 'name', null, undefined],
        ['GET', `/api/stores/${fx.storeId}/availability?date=%00`, 'date', null, undefined],
      ];
      for (const [method, path, field, json, who] of cases) {
        const res = await app.fetch(path, { method, headers: en, cookie: who, ...(json ? { json } : {}) });
        const label = `${method} ${path} ${field}`;
        expect([label, res.status]).toEqual([label, 400]);
        const error = await envelope(res);
        expect([label, error.fields?.[field]]).toEqual([label, expect.stringContaining('not allowed')]);
      }
      // Pages: the search form answers 400 with the message in the page, never the 500 page.
      for (const path of ['/home?name=%00', '/stores?name=%00', `/store/${fx.storeId}?date=%00`]) {
        const res = await app.fetch(path, { headers: en });
        expect([path, res.status]).toEqual([path, 400]);
        expect(await res.text()).toContain('not allowed');
      }
      const form = await app.fetch('/auth/signin', {
        method: 'POST',
        headers: { ...en, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%00%40example.jp&password=x',
      });
      expect(form.status).toBe(400);
      expect(app.output()).not.toMatch(/"status":500/);
    });

    it('answers 404 for every id parameter above 2147483647, and for other non-ids', async () => {
      const cookie = fx.users[0]!.cookie;
      const ids = ['2147483648', '9999999999', '99999999999999999999', '0', '-1', '1e3', '０１'];
      for (const id of ids) {
        const paths: Array<[string, string, string | undefined]> = [
          ['GET', `/api/stores/${id}`, undefined],
          ['GET', `/api/stores/${id}/availability`, undefined],
          ['GET', `/api/bookings/${id}`, cookie],
          ['PATCH', `/api/bookings/${id}`, cookie],
          ['DELETE', `/api/bookings/${id}`, cookie],
          ['GET', `/api/bookings/${id}/ics`, cookie],
          ['GET', `/api/guest-bookings/${id}`, undefined],
          ['DELETE', `/api/guest-bookings/${id}`, undefined],
          ['GET', `/api/guest-bookings/${id}/ics`, undefined],
          ['PUT', `/api/favourites/${id}`, cookie],
          ['DELETE', `/api/favourites/${id}`, cookie],
          ['DELETE', `/api/history/${id}`, cookie],
        ];
        for (const [method, path, who] of paths) {
          const res = await app.fetch(encodeURI(path), {
            method,
            cookie: who,
            headers: { 'x-booking-token': 'x' },
            ...(method === 'PATCH' ? { json: { party_size: 2 } } : {}),
          });
          expect([method, path, res.status]).toEqual([method, path, 404]);
          expect((await envelope(res)).code).toBe('not_found');
        }
        for (const path of [
          `/store/${id}`,
          `/store/${id}/booking-without`,
          `/store/${id}/booking`,
          `/areas/${id}`,
          `/store/${fx.storeId}/booking-without/edit/${id}?token=x`,
          `/store/${fx.storeId}/booking/edit/${id}`,
          `/store/${fx.storeId}/booking/complete/${id}`,
        ]) {
          const res = await app.fetch(encodeURI(path), { cookie });
          expect([path, res.status]).toEqual([path, 404]);
          await res.body?.cancel();
        }
      }
      const big = await app.fetch('/api/guest-bookings', { method: 'POST', headers: en, json: { ...guest(), store_id: 2147483648 } });
      expect(big.status).toBe(400);
      expect((await envelope(big)).fields?.store_id).toBeTruthy();
      expect(app.output()).not.toMatch(/"status":500/);
    });

    it('answers TRACE with 405 and Allow on any path, in the envelope under /api; TRACK with 400', async () => {
      expect((await rawRequest(app, { method: 'TRACK', path: '/home' })).status).toBe(400);
      for (const method of ['TRACE']) {
        for (const path of ['/', '/home', '/api/areas', '/api/nothing', '/_astro/x.js']) {
          const res = await rawRequest(app, { method, path, headers: { cookie: 'example=secret' } });
          expect([method, path, res.status]).toEqual([method, path, 405]);
          expect(res.headers.allow).toContain('GET');
          expect(res.body).not.toContain('secret');
          if (path.startsWith('/api/')) expect(JSON.parse(res.body).error.code).toBe('method_not_allowed');
        }
      }
    });

    it('puts every /api error in the JSON envelope: cross-site writes, bad %-encoding, headers over 16 KB, unknown methods', async () => {
      // Astro's own origin check answered text/plain.
      const csrf = await rawRequest(app, {
        method: 'POST',
        path: '/api/bookings',
        headers: { origin: 'https://evil.example', 'content-type': 'text/plain', cookie: fx.users[0]!.cookie },
        body: '{}',
      });
      expect(csrf.status).toBe(403);
      expect(JSON.parse(csrf.body).error.code).toBe('cross_origin');
      for (const path of ['/api/stores?name=%E0%A4%A', '/api/stores?name=%zz', '/api/%E0%A4%A', '/api/stores/%FF']) {
        const res = await rawRequest(app, { path, headers: { 'accept-language': 'ja' } });
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body).error).toEqual({ code: 'bad_request', message: 'URL の形式が正しくありません' });
      }
      const page = await rawRequest(app, { path: '/home?name=%zz' });
      expect(page.status).toBe(400);
      const big = await rawRequest(app, { path: '/api/areas', headers: { 'x-padding': 'a'.repeat(17 * 1024) } });
      expect(big.status).toBe(431);
      expect(JSON.parse(big.body).error.code).toBe('headers_too_large');
      const method = await app.fetch('/api/areas', { method: 'PUT', headers: en });
      expect(method.status).toBeGreaterThanOrEqual(400);
      expect(method.status).toBeLessThan(500);
      expect((await envelope(method)).message).toBeTruthy();
    });

    it('answers DELETE /api/login with 204 with no headers at all, and a forged cross-site sign-out ends nothing', async () => {
      const bare = await rawRequest(app, { method: 'DELETE', path: '/api/login' });
      expect(bare.status).toBe(204);
      const cookie = fx.users[1]!.cookie;
      const forged = await rawRequest(app, { method: 'DELETE', path: '/api/login', headers: { origin: 'https://evil.example', cookie } });
      expect(forged.status).toBe(204);
      expect((await app.fetch('/api/me', { cookie })).status).toBe(200);
      // A client without a browser (no Origin) signs out for real.
      const client = await rawRequest(app, { method: 'DELETE', path: '/api/login', headers: { cookie } });
      expect(client.status).toBe(204);
      expect((await app.fetch('/api/me', { cookie })).status).toBe(401);
    });

    it('refuses invalid UTF-8 in a JSON body with 400 instead of storing U+FFFD', async () => {
      const [before, after] = JSON.stringify({ ...guest(), name: '@@' }).split('@@');
      const body = Buffer.concat([Buffer.from(before!), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(after!)]);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(body)).toThrow();
      const res = await rawRequest(app, {
        method: 'POST',
        path: '/api/guest-bookings',
        headers: { 'content-type': 'application/json', origin: app.url, 'accept-language': 'en' },
        body,
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error.code).toBe('invalid_encoding');
      // The same body in valid UTF-8 books: the refusal was for the bytes alone.
      const ok = await app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest(), start: tokyoStart(4, 19) } });
      expect(ok.status).toBe(201);
    });

    it('logs an upload cut short as a client abort, not as a 500 with a stack', async () => {
      const { port, hostname } = new URL(app.url);
      // Expect: 100-continue makes the server say when it has the request and waits for the body.
      const req = http.request({
        host: hostname,
        port,
        method: 'POST',
        path: '/api/guest-bookings',
        headers: { 'content-type': 'application/json', 'content-length': '4000', origin: app.url, 'x-request-id': `cut-${engine}`, expect: '100-continue' },
      });
      req.on('error', () => {});
      await new Promise((resolve) => req.once('continue', resolve));
      req.write('{"store_id": 1, "name": "', () => req.destroy());
      await app.waitForOutput(new RegExp(`"msg":"client_aborted"[^\\n]*"requestId":"cut-${engine}"`), 'the abort to be logged');
      expect(app.output()).not.toMatch(/Error: aborted/);
      expect(app.output()).not.toMatch(new RegExp(`"msg":"api_failure"[^\\n]*cut-${engine}`));
    });
  });
}
