/**
 * Bytes on the wire, on the real built server as `npm start` runs it: compression, precompressed
 * static files and cache headers for every kind of response.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type App } from '../helpers/app';
import { signUp } from '../helpers/auth';

const client = path.resolve(import.meta.dirname, '../../dist/client');
const BROWSER = 'gzip, deflate, br, zstd';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent. */
  wire: Buffer;
  /** The body after undoing Content-Encoding. */
  body: Buffer;
}

function decode(coding: string | undefined, wire: Buffer): Buffer {
  if (coding === 'br') return zlib.brotliDecompressSync(wire);
  if (coding === 'gzip') return zlib.gunzipSync(wire);
  if (coding === undefined) return wire;
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

/** One request with a raw client (fetch would decode the body and hide what was sent). */
function get(app: App, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    http
      .request({ host: hostname, port, path: pathname, method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const wire = Buffer.concat(chunks);
          try {
            resolve({ status: res.statusCode!, headers: res.headers, wire, body: method === 'HEAD' ? wire : decode(res.headers['content-encoding'], wire) });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

describe('compression and caching on the built server', () => {
  let app: App;
  let stylesheet: string;
  let script: string;

  beforeAll(async () => {
    // No heartbeat during the test: nothing but the events themselves could push an event out.
    app = await startApp('pglite', { SUGU_SSE_HEARTBEAT_MS: String(3_600_000) });
    const home = (await get(app, '/home')).body.toString();
    stylesheet = home.match(/<link[^>]+rel="stylesheet"[^>]+href="(\/_astro\/[^"]+\.css)"/)?.[1] ?? home.match(/href="(\/_astro\/[^"]+\.css)"/)![1]!;
    // The page's largest script: a chunk of a few bytes (a bare import) is below what is worth compressing.
    const scripts = [...home.matchAll(/src="(\/_astro\/[^"]+\.js)"/g)].map((m) => m[1]!);
    script = scripts.sort((a, b) => fs.statSync(path.join(client, b)).size - fs.statSync(path.join(client, a)).size)[0]!;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('pages: brotli or gzip by the q-values, Vary, never stored by a shared cache; decoded = uncompressed', async () => {
    const plain = await get(app, '/term');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.length).toBeGreaterThan(2000);
    for (const [accept, coding] of [
      [BROWSER, 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.4, gzip;q=0.9', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['*', 'br'],
    ] as const) {
      const res = await get(app, '/term', { 'accept-encoding': accept });
      expect([accept, res.headers['content-encoding']]).toEqual([accept, coding]);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.body.equals(plain.body)).toBe(true);
      if (coding) expect(res.wire.length).toBeLessThan(plain.body.length / 2);
    }
    const home = await get(app, '/home', { 'accept-encoding': BROWSER });
    expect([home.status, home.headers['content-encoding'], home.headers['cache-control']]).toEqual([200, 'br', 'private, no-cache']);
    expect(home.body.toString()).toContain('</html>');
    const missing = await get(app, '/no-such-page', { 'accept-encoding': BROWSER });
    expect([missing.status, missing.headers['content-encoding']]).toEqual([404, 'br']);
    // HEAD: the head a GET gets, no body.
    const head = await get(app, '/term', { 'accept-encoding': BROWSER }, 'HEAD');
    expect([head.status, head.headers['content-encoding'], head.wire.length]).toEqual([200, 'br', 0]);
  });

  it('a signed-in diner’s pages are not stored at all', async () => {
    const me = await signUp(app);
    const res = await get(app, '/booking-list', { 'accept-encoding': BROWSER, cookie: me.jar.header() });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('API answers: JSON compressed and never cached; a small one left as it is, with its length', async () => {
    const plain = await get(app, '/api/stores?per_page=20');
    const br = await get(app, '/api/stores?per_page=20', { 'accept-encoding': BROWSER });
    expect([br.status, br.headers['content-encoding'], br.headers['cache-control']]).toEqual([200, 'br', 'no-store']);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(br.body.toString())).toEqual(JSON.parse(plain.body.toString()));
    const store = await get(app, '/api/stores/1', { 'accept-encoding': 'gzip' });
    expect(store.headers['content-encoding']).toBe('gzip');
    expect(store.body.equals((await get(app, '/api/stores/1')).body)).toBe(true);

    const health = await get(app, '/healthz', { 'accept-encoding': BROWSER });
    expect([health.headers['content-encoding'], health.headers['content-length']]).toEqual([undefined, String(health.wire.length)]);
    const error = await get(app, '/api/stores?party=abc', { 'accept-encoding': BROWSER });
    expect(error.status).toBe(400);
    expect(error.wire.length).toBeLessThan(1024);
    expect([error.headers['content-encoding'], error.headers['content-length']]).toEqual([undefined, String(error.wire.length)]);
  });

  it('build assets: the precompressed copy, immutable for a year, ETag and 304', async () => {
    for (const asset of [stylesheet, script]) {
      const original = fs.readFileSync(path.join(client, asset));
      const br = await get(app, asset, { 'accept-encoding': BROWSER });
      expect([asset, br.status, br.headers['content-encoding']]).toEqual([asset, 200, 'br']);
      // Sent from the file the build wrote, not compressed again per request.
      expect(br.wire.equals(fs.readFileSync(path.join(client, `${asset}.br`)))).toBe(true);
      expect(br.body.equals(original)).toBe(true);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers['content-length']).toBe(String(br.wire.length));
      expect(br.headers['content-type']).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      const gz = await get(app, asset, { 'accept-encoding': 'gzip' });
      expect(gz.wire.equals(fs.readFileSync(path.join(client, `${asset}.gz`)))).toBe(true);
      expect(gz.body.equals(original)).toBe(true);
      const plain = await get(app, asset);
      expect([plain.headers['content-encoding'], plain.body.equals(original)]).toEqual([undefined, true]);
      expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);

      const revalidated = await get(app, asset, { 'accept-encoding': BROWSER, 'if-none-match': br.headers.etag! });
      expect([revalidated.status, revalidated.wire.length, revalidated.headers.etag]).toEqual([304, 0, br.headers.etag]);
    }
  });

  it('public files (photos, icon): a day, then revalidated by ETag or Last-Modified', async () => {
    for (const file of ['/photos/sushi-1.svg', '/favicon.svg']) {
      const res = await get(app, file, { 'accept-encoding': BROWSER });
      expect([file, res.status, res.headers['cache-control']]).toEqual([file, 200, 'public, max-age=86400']);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.body.equals(fs.readFileSync(path.join(client, file)))).toBe(true);
      // Sent as the build left it: its brotli copy where one was smaller, else as it is.
      const copied = fs.existsSync(path.join(client, `${file}.br`));
      expect([file, res.headers['content-encoding']]).toEqual([file, copied ? 'br' : undefined]);
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      // Each representation has its own tag: the same client revalidates the one it holds.
      const again = { 'accept-encoding': BROWSER };
      expect((await get(app, file, { ...again, 'if-none-match': res.headers.etag! })).status).toBe(304);
      expect((await get(app, file, { ...again, 'if-modified-since': res.headers['last-modified']! })).status).toBe(304);
      expect((await get(app, file, { ...again, 'if-none-match': '"stale"' })).status).toBe(200);
    }
  });

  it('live availability: an event reaches a client that accepts br and gzip at once, unbuffered', async () => {
    const { hostname, port } = new URL(app.url);
    const req = http.request({
      host: hostname,
      port,
      path: '/api/availability/stream?stores=1,2,3&party=2',
      headers: { accept: 'text/event-stream', 'accept-encoding': BROWSER },
      agent: false,
    });
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject).end());
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      // Event streams are sent as they are: a compressor held open per stream would cost memory
      // for its whole life and save a few dozen bytes per event (src/server/http/compress.ts).
      expect(res.headers['content-encoding']).toBeUndefined();
      // With the heartbeat off, the server sends nothing after the first state of the three
      // stores: a buffered event would never arrive and the test would fail by its timeout.
      let text = '';
      for await (const chunk of res) {
        text += chunk;
        if ((text.match(/event: availability\n/g) ?? []).length === 3 && text.endsWith('\n\n')) break;
      }
      expect(text).toMatch(/^retry: \d+\n/);
      expect(text).toContain('"store_id":1');
    } finally {
      req.destroy();
    }
  });

  it('edge refusals and redirects keep their small, uncompressed answers', async () => {
    const redirect = await get(app, '/', { 'accept-encoding': BROWSER });
    expect([redirect.status, redirect.headers.location]).toEqual([302, '/home']);
    const bad = await get(app, '/api/stores?name=%zz', { 'accept-encoding': BROWSER });
    expect([bad.status, bad.headers['content-encoding'], bad.headers['cache-control']]).toEqual([400, undefined, 'no-store']);
  });
});
