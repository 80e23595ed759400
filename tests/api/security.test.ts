/**
 * Security suite over HTTP against the real server on both engines: security headers on every
 * kind of response, CSRF by a "simple" cross-origin request, no internals in error bodies, the
 * guest edit token never leaking after its exchange, and owner-only favourites, history and
 * account data. (Cookie flags, session fixation, rate limits, booking ownership and form-post
 * CSRF on /preferences are covered in auth*.test.ts, booking.test.ts and shell.test.ts.)
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { forEachApp, type App } from '../helpers/app';
import { signUp, type SignedUp } from '../helpers/auth';
import { tokyoStart } from './booking-fixtures';

type Json = Record<string, any>;
const guest = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'hanako@example.jp' };
const root = path.resolve(import.meta.dirname, '../..');

/** A seeded store open 24 hours on every weekday, so any aligned start in the window is bookable. */
async function allDayStore(app: App): Promise<number> {
  const list = (await (await app.fetch('/api/stores?per_page=50')).json()) as Json;
  for (const { id } of list.items as Json[]) {
    const s = (await (await app.fetch(`/api/stores/${id}`)).json()) as Json;
    const days = new Set((s.hours as Json[]).filter((h) => h.opens_min === 0 && h.closes_min >= 1440).map((h) => h.weekday));
    if (days.size === 7) return id;
  }
  throw new Error('no 24-hour store in the seed');
}

function expectSecurityHeaders(label: string, res: Response): void {
  const h = (name: string) => res.headers.get(name) ?? '';
  expect([label, h('content-security-policy')]).toEqual([label, expect.stringContaining("frame-ancestors 'none'")]);
  expect([label, h('content-security-policy')]).toEqual([label, expect.stringContaining("default-src 'self'")]);
  expect([label, h('x-content-type-options')]).toEqual([label, 'nosniff']);
  expect([label, h('x-frame-options')]).toEqual([label, 'DENY']);
  expect([label, h('referrer-policy')]).toEqual([label, expect.stringMatching(/^(strict-origin-when-cross-origin|no-referrer|same-origin)$/)]);
}

forEachApp(
  'security',
  (app) => {
    let me: SignedUp;
    let storeId: number;

    const guestBook = async (days: number, hh: number): Promise<Json> => {
      const res = await app().fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          ...guest,
          phone: `090-${1000 + days}-${5000 + hh}`,
          email: `guest-${days}-${hh}@example.jp`,
          store_id: storeId,
          start: tokyoStart(days, hh),
          party_size: 2,
        },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as Json;
    };

    beforeAll(async () => {
      me = await signUp(app());
      storeId = await allDayStore(app());
    });

    it('sends CSP (frame-ancestors none), nosniff, X-Frame-Options and a Referrer-Policy on every kind of response', async () => {
      const cookie = me.jar.header();
      const b = await guestBook(6, 13); // past the seed's bookings (today and the next two days)
      const edit = `/store/${storeId}/booking-without/edit/${b.id}`;
      const cases: Array<[string, string, { cookie?: string; headers?: Record<string, string> }, number]> = [
        ['product page', '/home', {}, 200],
        ['store page', `/store/${storeId}`, {}, 200],
        ['auth page', '/auth/signin', {}, 200],
        ['guarded page, signed in', '/account-info', { cookie }, 200],
        ['template page', '/dashboard/analytics', { cookie }, 200],
        ['404 page', '/no/such/page', {}, 404],
        ['500 page', '/error/unexpected', {}, 500],
        ['redirect', '/', {}, 302],
        ['JSON API', '/api/areas', {}, 200],
        ['JSON API, signed in', '/api/me', { cookie }, 200],
        ['API error 404', '/api/stores/abc', {}, 404],
        ['API error 400', '/api/stores?party=0', {}, 400],
        ['API error 401', '/api/bookings', {}, 401],
        ['unknown API path', '/api/nothing-here', {}, 404],
        ['guest edit page', edit, { cookie: `sugu_guest_page=${encodeURIComponent(b.edit_token)}` }, 200],
      ];
      for (const [label, pathname, opts, status] of cases) {
        const res = await app().fetch(pathname, opts);
        expect([label, res.status]).toEqual([label, status]);
        expectSecurityHeaders(label, res);
        await res.body?.cancel();
      }
      // The live stream: headers arrive with the 200, then the body stays open; close it.
      const controller = new AbortController();
      const sse = await app().fetch(`/api/availability/stream?stores=${storeId}&party=2`, { signal: controller.signal });
      try {
        expect(sse.status).toBe(200);
        expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expectSecurityHeaders('SSE stream', sse);
      } finally {
        controller.abort();
      }
    });

    it('refuses a cross-origin text/plain POST carrying the session cookie (CSRF by simple request) and changes nothing', async () => {
      const cookie = me.jar.header();
      const before = ((await (await app().fetch('/api/bookings', { cookie })).json()) as Json).items.length;
      const evil = { origin: 'https://evil.example', 'content-type': 'text/plain' };
      const body = JSON.stringify({ store_id: storeId, start: tokyoStart(3, 14), party_size: 2 });
      for (const [method, pathname, payload] of [
        ['POST', '/api/bookings', body],
        ['POST', '/api/guest-bookings', JSON.stringify({ ...guest, store_id: storeId, start: tokyoStart(3, 14), party_size: 2 })],
        ['POST', '/api/login', JSON.stringify({ email: me.email, password: me.password })],
        ['POST', '/api/users', JSON.stringify({ name: '攻撃 太郎', email: 'csrf@example.jp', password: 'pw-abcdefgh-1234', agree: true })],
      ] as const) {
        for (const headers of [evil, { ...evil, 'content-type': 'text/plain;charset=UTF-8' }, { ...evil, origin: 'null' }]) {
          const res = await app().fetch(pathname, { method, cookie, headers, body: payload });
          expect([pathname, headers.origin, headers['content-type'], res.status]).toEqual([pathname, headers.origin, headers['content-type'], 403]);
          expect(res.headers.getSetCookie()).toHaveLength(0);
          await res.body?.cancel();
        }
      }
      const after = (await (await app().fetch('/api/bookings', { cookie })).json()) as Json;
      expect(after.items.length).toBe(before);
      // The session still works and no account was made.
      expect((await app().fetch('/api/me', { cookie })).status).toBe(200);
      const taken = await app().fetch('/api/login', { method: 'POST', json: { email: 'csrf@example.jp', password: 'pw-abcdefgh-1234' } });
      expect(taken.status).toBe(401);
      // No CORS grant for a foreign origin either (a JSON POST would need a preflight).
      const preflight = await app().fetch('/api/bookings', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('takes a guest’s token header without Origin (no cookie involved, and another site cannot send the header), but not the guest cookie alone', async () => {
      const b = await guestBook(9, 13);
      const api = `${app().url}/api/guest-bookings/${b.id}`;
      // A bodiless DELETE without Origin, as a script holding the mailed token sends it: with only the cookie it could be forged.
      const byCookie = await fetch(api, { method: 'DELETE', headers: { cookie: `sugu_guest=${b.edit_token}` } });
      expect(byCookie.status).toBe(403);
      expect(((await byCookie.json()) as Json).error.code).toBe('cross_origin');
      const byHeader = await fetch(api, { method: 'DELETE', headers: { 'x-booking-token': b.edit_token } });
      expect(byHeader.status).toBe(200);
      expect(((await byHeader.json()) as Json).status).toBe('cancelled');
    });

    it('keeps stack traces, file paths and SQL out of every 4xx/5xx body', async () => {
      const cookie = me.jar.header();
      const json = { 'content-type': 'application/json' };
      const requests: Array<[string, string, { cookie?: string; headers?: Record<string, string>; body?: string }]> = [
        ['GET', '/api/stores/abc', {}],
        ['GET', '/api/stores/99999999999999999999', {}],
        ['GET', '/api/stores?name=%27%20OR%201%3D1--&party=abc', {}],
        ['GET', '/api/stores?lat=999&lng=x', {}],
        ['GET', `/api/stores/${storeId}/availability?date=2026-02-30&party=2`, {}],
        ['GET', '/api/availability/stream?stores=abc', {}],
        ['POST', '/api/bookings', { cookie, headers: json, body: '{"store_id":' }],
        ['POST', '/api/bookings', { cookie, headers: json, body: JSON.stringify({ store_id: "1'; drop table bookings; --", start: 'x', party_size: -1 }) }],
        [
          'POST',
          '/api/guest-bookings',
          { headers: json, body: JSON.stringify({ store_id: storeId, start: tokyoStart(2, 12), party_size: 2, note: 'x'.repeat(70_000) }) },
        ],
        ['POST', '/api/guest-bookings', { headers: json, body: '[]' }],
        ['POST', '/api/login', { headers: json, body: JSON.stringify({ email: { $ne: 1 }, password: ['a'] }) }],
        ['PATCH', '/api/me', { cookie, headers: json, body: JSON.stringify({ email: 'not-an-address', phone: '\u0000' }) }],
        ['GET', '/api/bookings/1', {}],
        ['GET', '/api/bookings/1e400', { cookie }],
        ['GET', '/api/guest-bookings/1', { headers: { 'x-booking-token': "' OR '1'='1" } }],
        ['DELETE', '/api/favourites/abc', { cookie }],
        ['GET', '/store/abc', {}],
        ['GET', '/store/99999999', {}],
        ['GET', `/store/${storeId}/booking-without/edit/abc?token=x`, {}],
        ['GET', '/error/unexpected', {}],
        ['GET', '/no/such/%E0%A4%A', {}],
      ];
      for (const [method, pathname, { body, ...opts }] of requests) {
        const res = await app().fetch(pathname, { method, ...opts, body });
        const label = `${method} ${pathname.slice(0, 80)}`;
        expect([label, res.status >= 400 && res.status < 600]).toEqual([label, true]);
        expect([label, res.status]).not.toEqual([label, 502]);
        const text = await res.text();
        expect([label, text]).not.toEqual([label, expect.stringMatching(/\n\s+at [^\n]*:\d+:\d+/)]);
        expect([label, text]).not.toEqual([label, expect.stringMatching(/\.(ts|mjs|cjs):\d+/)]);
        expect([label, text]).not.toEqual([label, expect.stringContaining(root)]);
        expect([label, text]).not.toEqual([
          label,
          expect.stringMatching(/node_modules|dist\/server|SQLSTATE|PostgresError|DrizzleQueryError|relation "|syntax error at/),
        ]);
        expect([label, text]).not.toEqual([
          label,
          expect.stringMatching(/\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[\s\S]{0,200}\b(FROM|VALUES|SET|WHERE)\b/),
        ]);
      }
    });

    it('never lets the guest edit token reach the log, the HTML after the exchange, or a Location header', async () => {
      const b = await guestBook(8, 13);
      const token = b.edit_token as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const page = `/store/${storeId}/booking-without/edit/${b.id}`;
      const locations: string[] = [];

      const exchange = await app().fetch(`${page}?token=${encodeURIComponent(token)}`, { headers: { 'accept-language': 'ja' } });
      expect(exchange.status).toBe(303);
      expect(exchange.headers.get('referrer-policy')).toBe('same-origin');
      locations.push(exchange.headers.get('location') ?? '');
      expect(await exchange.text()).not.toContain(token);
      const pageCookie = exchange.headers
        .getSetCookie()
        .find((c) => c.startsWith('sugu_guest_page='))!
        .split(';')[0]!;

      const opened = await app().fetch(page, { cookie: pageCookie, headers: { 'accept-language': 'ja' } });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('referrer-policy')).toBe('same-origin');
      const html = await opened.text();
      expect(html).toContain(b.code);
      expect(html).not.toContain(token);
      expect(html).not.toContain(encodeURIComponent(token));
      locations.push(opened.headers.get('location') ?? '');

      // Following a bad or repeated link, and editing through the page cookie, still never echo it.
      for (const again of [`${page}?token=${encodeURIComponent(token)}&x=1`, `${page}?token=${encodeURIComponent(token)}`]) {
        const r = await app().fetch(again, { cookie: pageCookie });
        locations.push(r.headers.get('location') ?? '');
        expect(await r.text()).not.toContain(token);
      }
      const patched = await app().fetch(`/api/guest-bookings/${b.id}`, { method: 'PATCH', headers: { 'x-booking-token': token }, json: { note: '窓側' } });
      expect(patched.status).toBe(200);
      expect(await patched.text()).not.toContain(token);

      for (const l of locations) expect(l).not.toContain(token);
      expect(locations[0]).toBe(page);
      // The request log line arrives through a pipe: wait for it, then look.
      await app().waitForOutput(new RegExp(`"path":"${page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`), 'the request log line');
      expect(app().output()).not.toContain(token);
      expect(app().output()).not.toContain(encodeURIComponent(token));
    });

    it('keeps favourites, history and /api/me to their owner: another user cannot read or remove them', async () => {
      const a = await signUp(app(), { name: '持主 一郎' });
      const b = await signUp(app(), { name: '他人 二郎' });
      const as = (who: SignedUp, pathname: string, method = 'GET') => app().fetch(pathname, { method, cookie: who.jar.header() });
      expect((await as(a, `/api/favourites/${storeId}`, 'PUT')).status).toBe(204);
      expect((await as(a, `/store/${storeId}`)).status).toBe(200);
      // b removing the same ids is a no-op for b, never a removal for a.
      expect((await as(b, `/api/favourites/${storeId}`, 'DELETE')).status).toBe(204);
      expect((await as(b, `/api/history/${storeId}`, 'DELETE')).status).toBe(204);
      const favA = (await (await as(a, '/api/favourites')).json()) as Json;
      const histA = (await (await as(a, '/api/history')).json()) as Json;
      expect(favA.items.map((i: Json) => i.id)).toEqual([storeId]);
      expect(histA.items.map((i: Json) => i.id)).toEqual([storeId]);
      expect(((await (await as(b, '/api/favourites')).json()) as Json).items).toEqual([]);
      expect(((await (await as(b, '/api/history')).json()) as Json).items).toEqual([]);
      // /api/me answers the caller only, with no secrets, whichever credential is used.
      const meB = (await (await as(b, '/api/me')).json()) as Json;
      expect(meB).toMatchObject({ email: b.email, name: '他人 二郎' });
      const text = JSON.stringify(meB);
      expect(text).not.toContain(a.email);
      expect(text).not.toMatch(/password|hash|argon|token/i);
      const bearerA = (await (await app().fetch('/api/me', { headers: { authorization: `Bearer ${a.token}` } })).json()) as Json;
      expect(bearerA.email).toBe(a.email);
      // The pages show the owner's lists only.
      const favPage = await (await as(b, '/favourite')).text();
      expect(favPage).not.toContain(`data-store-id="${storeId}"`);
      const histPage = await (await as(b, '/viewed-list')).text();
      expect(histPage).not.toContain(`data-history="${storeId}"`);
    });
  },
  {},
  { shared: true },
);
