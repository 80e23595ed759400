import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressResponse, isCompressible, MIN_COMPRESS_BYTES, negotiate, varyOnEncoding } from '../../src/server/http/compress';
import { precompressDir } from '../../src/server/http/precompress';
import { IMMUTABLE, loadAssets, PUBLIC_FILE, serveStatic } from '../../src/server/http/static';

describe('Accept-Encoding negotiation', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['br;q=0, *;q=0.3', 'gzip'],
    ['identity', 'identity'],
    ['identity;q=1, gzip;q=0.5', 'identity'],
    ['identity;q=0, gzip;q=0.5', 'gzip'],
    ['deflate', 'identity'],
    [' GZIP ; Q=0.8 , Br ; q=0.9', 'br'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiate(header)).toBe(coding);
  });

  it('offers only the codings given (a static file without a brotli copy)', () => {
    expect(negotiate('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiate('br', ['gzip'])).toBe('identity');
  });

  it('compresses text formats, never event streams or compressed formats', () => {
    for (const type of [
      'text/html',
      'text/css; charset=utf-8',
      'text/javascript',
      'application/json; charset=utf-8',
      'image/svg+xml',
      'text/calendar; charset=utf-8',
      'application/manifest+json',
      'application/problem+json',
    ])
      expect([type, isCompressible(type)]).toEqual([type, true]);
    for (const type of ['text/event-stream; charset=utf-8', 'image/png', 'image/webp', 'font/woff2', 'application/zip', 'application/octet-stream', undefined])
      expect([type, isCompressible(type)]).toEqual([type, false]);
  });

  it('adds Accept-Encoding to Vary once', () => {
    expect(varyOnEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyOnEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyOnEncoding('origin, accept-encoding')).toBe('origin, accept-encoding');
    expect(varyOnEncoding('*')).toBe('*');
  });
});

/** A real HTTP server whose handler is wrapped by compressResponse, as the edge does. */
function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    compressResponse(req, res);
    handler(req, res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/** GET with a raw client: the head, and the body decoded as it arrives. */
function get(url: string, acceptEncoding: string): Promise<{ res: http.IncomingMessage; decoded: NodeJS.ReadableStream }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const coding = res.headers['content-encoding'];
        const decoded = coding === 'br' ? res.pipe(zlib.createBrotliDecompress()) : coding === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
        resolve({ res, decoded });
      })
      .on('error', reject);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

describe('compressResponse on a real server', () => {
  const page = `<!doctype html><title>x</title>${'<p>空席あり 渋谷 焼肉</p>'.repeat(400)}`;

  it.each(['br', 'gzip'] as const)('streams with %s: the first part reaches the client before the rest is written', async (coding) => {
    let releaseSecondPart!: () => void;
    const secondPart = new Promise<void>((r) => (releaseSecondPart = r));
    const app = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(page.slice(0, 5000));
      // The rest waits for the client to have read the first part: a compressor that buffered
      // would deadlock here and fail the test by its timeout.
      await secondPart;
      res.write(page.slice(5000));
      res.end();
    });
    try {
      const { res, decoded } = await get(app.url, `${coding}, gzip;q=0.5`);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-length']).toBeUndefined();
      let text = '';
      for await (const chunk of decoded) {
        text += chunk;
        if (text.length >= 5000) releaseSecondPart();
      }
      expect(text).toBe(page);
    } finally {
      await app.close();
    }
  });

  it('leaves small, already-encoded, no-transform, event-stream and bodiless answers alone', async () => {
    const app = await serve((req, res) => {
      const kind = req.url!.slice(1);
      if (kind === 'small') return res.end(JSON.stringify({ ok: true }));
      res.setHeader('content-type', kind === 'png' ? 'image/png' : kind === 'events' ? 'text/event-stream' : 'text/plain');
      if (kind === 'no-transform') res.setHeader('cache-control', 'no-store, no-transform');
      if (kind === 'not-modified') {
        res.statusCode = 304;
        return res.end();
      }
      res.end('x'.repeat(4000));
    });
    try {
      for (const kind of ['small', 'png', 'no-transform', 'events', 'not-modified']) {
        const { res, decoded } = await get(`${app.url}/${kind}`, 'br, gzip');
        const body = await readAll(decoded);
        expect([kind, res.headers['content-encoding']]).toEqual([kind, undefined]);
        if (kind === 'not-modified') continue;
        expect([kind, res.headers['content-length']]).toEqual([kind, String(body.length)]);
      }
      // A body given whole to end() gets a Content-Length even when it is compressed away from it.
      const { res, decoded } = await get(`${app.url}/text`, 'identity');
      expect(res.headers['content-length']).toBe('4000');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(await readAll(decoded)).toBe('x'.repeat(4000));
    } finally {
      await app.close();
    }
  });

  it('compresses a body written in one piece, and the decoded bytes are the original', async () => {
    const app = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(page), etag: '"v1"' });
      res.end(page);
    });
    try {
      for (const coding of ['br', 'gzip'] as const) {
        const { res, decoded } = await get(app.url, coding);
        expect(res.headers['content-encoding']).toBe(coding);
        // Compressed in one call, so the compressed length is known and sent.
        expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
        expect(Number(res.headers['content-length'])).toBeLessThan(Buffer.byteLength(page));
        expect(res.headers.etag).toBe('W/"v1"');
        expect(await readAll(decoded)).toBe(page);
      }
    } finally {
      await app.close();
    }
  });
});

describe('precompressed static files', () => {
  let dir: string;
  const css = `.card{display:flex;gap:.5rem}${'.c{color:#0096c7}'.repeat(300)}`;
  // A small chunk, as a page loads many: too small to compress per request, worth a copy made once.
  const chunk = `export function f(a){return a.map(function(x){return x*2})}${'/* chunk */'.repeat(30)}`;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-static-'));
    fs.mkdirSync(path.join(dir, '_astro'));
    fs.mkdirSync(path.join(dir, 'photos'));
    fs.writeFileSync(path.join(dir, '_astro/app.abc123.css'), css);
    fs.writeFileSync(path.join(dir, '_astro/chunk.def456.js'), chunk);
    fs.writeFileSync(path.join(dir, 'photos/tiny.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(dir, 'photos/shot.png'), Buffer.alloc(4096, 7));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside compressible files worth it, and nothing beside the rest', () => {
    const stats = precompressDir(dir);
    expect(stats.files).toBe(2);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, '_astro/app.abc123.css.br'))).toString()).toBe(css);
    expect(chunk.length).toBeLessThan(MIN_COMPRESS_BYTES);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, '_astro/chunk.def456.js.br'))).toString()).toBe(chunk);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, '_astro/app.abc123.css.gz'))).toString()).toBe(css);
    expect(fs.existsSync(path.join(dir, 'photos/tiny.svg.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'photos/shot.png.gz'))).toBe(false);
  });

  it('serves the copy the client accepts, with validators and cache lifetimes', async () => {
    const assets = loadAssets(dir);
    expect([...assets.keys()].sort()).toEqual(['/_astro/app.abc123.css', '/_astro/chunk.def456.js', '/photos/shot.png', '/photos/tiny.svg']);
    const server = http.createServer((req, res) => {
      if (!serveStatic(assets, req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
    const raw = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .request(base + p, { method, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject)
          .end();
      });
    try {
      const br = await raw('/_astro/app.abc123.css', { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.body.equals(fs.readFileSync(path.join(dir, '_astro/app.abc123.css.br')))).toBe(true);
      expect(br.headers['content-length']).toBe(String(br.body.length));
      expect(br.headers['cache-control']).toBe(IMMUTABLE);
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers['content-type']).toBe('text/css; charset=utf-8');
      const gz = await raw('/_astro/app.abc123.css', { 'accept-encoding': 'gzip' });
      const plain = await raw('/_astro/app.abc123.css');
      expect(zlib.gunzipSync(gz.body).toString()).toBe(css);
      expect(plain.body.toString()).toBe(css);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // Each representation has its own validator.
      expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);

      const again = await raw('/_astro/app.abc123.css', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
      expect([again.status, again.body.length, again.headers.etag, again.headers['cache-control']]).toEqual([304, 0, br.headers.etag, IMMUTABLE]);
      // The brotli validator does not match the gzip copy.
      expect((await raw('/_astro/app.abc123.css', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! })).status).toBe(200);

      const photo = await raw('/photos/tiny.svg', { 'accept-encoding': 'br, gzip' });
      expect([photo.status, photo.headers['content-encoding'], photo.headers.vary, photo.headers['cache-control']]).toEqual([
        200,
        undefined,
        undefined,
        PUBLIC_FILE,
      ]);
      expect(photo.headers['last-modified']).toBeTruthy();
      expect((await raw('/photos/tiny.svg', { 'if-modified-since': photo.headers['last-modified']! })).status).toBe(304);
      expect(
        (await raw('/photos/tiny.svg', { 'if-modified-since': new Date(Date.parse(photo.headers['last-modified']!) - 60_000).toUTCString() })).status,
      ).toBe(200);
      expect((await raw('/photos/tiny.svg', { 'if-none-match': `W/${photo.headers.etag}` })).status).toBe(304);

      const head = await raw('/_astro/app.abc123.css', { 'accept-encoding': 'br' }, 'HEAD');
      expect([head.status, head.body.length, head.headers['content-length']]).toEqual([200, 0, br.headers['content-length']]);
      expect((await raw('/_astro/app.abc123.css', {}, 'POST')).status).toBe(404);
      expect((await raw('/_astro/missing.css')).status).toBe(404);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
