/**
 * Response compression at the HTTP edge: brotli when the browser accepts it, else gzip, chosen by
 * the `Accept-Encoding` q-values, with `Vary: Accept-Encoding`. Rendered pages stream, so the
 * compressor flushes whenever the page pauses (a database query, an awaited component): the first
 * bytes still leave at once instead of waiting for the whole document.
 *
 * Static files are not compressed here: the build writes `.br`/`.gz` files beside them
 * (src/server/http/precompress.ts) and src/server/http/static.ts serves those.
 *
 * Loaded by scripts/start.mjs with Node's own TypeScript support: `.ts` imports, nothing that needs
 * a bundler.
 *
 * One module: choosing the coding and streaming the compressed answer are one mechanism (when to
 * flush depends on the coding chosen), loaded by Node as it is at the edge.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import zlib from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';

/** Below this many bytes a response fits in one packet anyway: compressing it saves no time. */
export const MIN_COMPRESS_BYTES = 1024;

/** Text formats worth compressing: HTML, CSS, JS, JSON, SVG, calendars (.ics), manifests, XML. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|ecmascript|xml|manifest\+json|[\w.+-]*\+(?:json|xml))\b|image\/svg\+xml\b)/i;

/**
 * Whether a response of this type is compressed. Event streams are not: each event is a packet of
 * ~150 bytes either way, while a compressor kept open per stream costs 0.1–0.5 MB of memory for the
 * stream's whole life (measured: 1,000 gzip streams 100–230 MB, brotli 400–550 MB), and a buffering
 * compressor would hold events back. Already-compressed formats (images, fonts, archives) are not
 * in the list.
 */
export function isCompressible(contentType: string | undefined | null): boolean {
  if (!contentType || /^text\/event-stream\b/i.test(contentType)) return false;
  return COMPRESSIBLE.test(contentType.trim());
}

/**
 * The coding to send for an `Accept-Encoding` header: the supported coding with the highest
 * q-value (brotli on a tie), or identity when none is acceptable or identity is preferred.
 *
 * @example negotiate('gzip;q=1.0, br;q=0.5') // 'gzip'
 * @example negotiate('br;q=0, *') // 'gzip'
 */
export function negotiate(header: string | undefined | null, offered: readonly Exclude<Coding, 'identity'>[] = ['br', 'gzip']): Coding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (!token) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(param);
      // A malformed q-value ("q=abc", "q=2") counts as a refusal rather than a wish.
      if (m) q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(m[1]!) ? Number(m[1]) : 0;
    }
    weights.set(token, Math.max(q, weights.get(token) ?? 0));
  }
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  // Identity is always acceptable unless refused; it wins only when the client ranks it higher.
  const identity = weights.get('identity');
  if (identity !== undefined && identity > bestQ) return 'identity';
  return best;
}

/** Adds `Accept-Encoding` to a Vary header value, once. */
export function varyOnEncoding(vary: string | number | string[] | undefined): string {
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (/(^|,)\s*(\*|accept-encoding)\s*(,|$)/i.test(current)) return current;
  return current ? `${current}, Accept-Encoding` : 'Accept-Encoding';
}

function headerValue(value: number | string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** Whether a response with these headers is left as it is, whatever the client accepts. */
function leftAlone(res: ServerResponse): boolean {
  const status = res.statusCode;
  if (status < 200 || status === 204 || status === 304) return true;
  if (res.hasHeader('content-encoding')) return true;
  // `no-transform` asks that the body reach the client byte for byte.
  if (/\bno-transform\b/i.test(headerValue(res.getHeader('cache-control')) ?? '')) return true;
  if (!isCompressible(headerValue(res.getHeader('content-type')))) return true;
  const length = headerValue(res.getHeader('content-length'));
  return length !== undefined && Number(length) < MIN_COMPRESS_BYTES;
}

/** Brotli quality for answers compressed as they go out (pages, JSON). */
const BROTLI_QUALITY = 3;
/** Gzip level, for browsers without brotli. */
const GZIP_LEVEL = 6;

const BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
};

/**
 * A body complete before its head goes out (nearly every page and JSON answer: they are rendered
 * within one turn of the event loop) is compressed at once, on this thread, up to this size. A
 * compressing stream hands each write to the thread pool and back: for /home's 74 KB that took
 * twice the CPU of compressing it in one call (0.8 against 0.4 ms, bench machine), and on two cores
 * the CPU is what the other requests wait for. Larger bodies, and pages still streaming, use the stream.
 */
const ONE_CALL_MAX_BYTES = 256 * 1024;

function compressWhole(coding: 'br' | 'gzip', body: Buffer): Buffer {
  return coding === 'br' ? zlib.brotliCompressSync(body, { params: BROTLI_PARAMS }) : zlib.gzipSync(body, { level: GZIP_LEVEL });
}

function createEncoder(coding: 'br' | 'gzip'): zlib.BrotliCompress | zlib.Gzip {
  // Per-request quality, chosen by measurement (docs/availability-index.md, "Listing pages under
  // load"): brotli 3 compresses /home (72 KB) in 0.4 ms to 11.6 KB, where quality 5 took 1.5 ms for
  // 9.8 KB, a fifth of the page's whole cost; gzip 6 is as large and slower. The precompressed
  // static files use the slowest, smallest settings instead. Brotli's default 4 MB
  // window was allocated for every answer: at 20 concurrent requests that alone held /term to a
  // fifth of its uncompressed rate. A 256 KB window is larger than any page, so the bytes are the same.
  if (coding === 'br') return zlib.createBrotliCompress({ params: BROTLI_PARAMS });
  return zlib.createGzip({ level: GZIP_LEVEL });
}

type WriteHead = ServerResponse['writeHead'];
type Write = (chunk: unknown, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) => boolean;
type End = (chunk?: unknown, encoding?: BufferEncoding | (() => void), callback?: () => void) => ServerResponse;

const toBuffer = (chunk: unknown, encoding?: BufferEncoding) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk as Uint8Array));

/**
 * Compresses what the app writes to `res`, if the response and the client call for it.
 *
 * The head is held back until the first burst of writes is over (one turn of the event loop) or the
 * response ends: a response that ends within it has a known length, so a small one goes out as it
 * is, with a `Content-Length`. The decision is then taken from the status, `Content-Type`,
 * `Content-Length`, `Content-Encoding` and `Cache-Control`.
 */
export function compressResponse(req: IncomingMessage, res: ServerResponse): void {
  const coding = negotiate(headerValue(req.headers['accept-encoding']));
  const writeHead = res.writeHead as WriteHead;
  const write = res.write as Write;
  const end = res.end as End;
  let state: 'pending' | 'identity' | 'encoding' = 'pending';
  let held: Buffer[] = [];
  let ended = false;
  let endCallback: (() => void) | undefined;
  let settleQueued = false;
  let flushQueued = false;
  let encoder: zlib.BrotliCompress | zlib.Gzip | undefined;

  const startEncoder = (enc: zlib.BrotliCompress | zlib.Gzip) => {
    // The socket's back-pressure reaches the encoder; the encoder's reaches whoever writes to `res`.
    enc.on('data', (chunk: Buffer) => {
      if (!write.call(res, chunk) && !enc.isPaused()) {
        enc.pause();
        res.once('drain', () => enc.resume());
      }
    });
    enc.on('drain', () => res.emit('drain'));
    enc.on('error', (error) => res.destroy(error));
    enc.once('end', () => end.call(res, endCallback));
    res.once('close', () => enc.destroy());
    encoder = enc;
  };

  // Each later burst of writes (all the chunks a streamed page has ready) is flushed as one once
  // the page pauses: the HTML keeps leaving early, and small writes still share one block.
  const flushSoon = () => {
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(() => {
      flushQueued = false;
      if (!encoder || encoder.writableEnded || encoder.destroyed) return;
      encoder.flush(coding === 'br' ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH);
    });
  };

  /** Decides, sends the head and what was held back. */
  const settle = () => {
    if (state !== 'pending' || res.destroyed) return;
    const status = res.statusCode;
    const bodiless = status < 200 || status === 204 || status === 304 || (req.method === 'HEAD' && !held.length);
    if (ended && !bodiless && !res.hasHeader('content-length'))
      res.setHeader(
        'content-length',
        held.reduce((n, b) => n + b.length, 0),
      );
    if (leftAlone(res)) state = 'identity';
    else {
      res.setHeader('vary', varyOnEncoding(res.getHeader('vary')));
      state = coding === 'identity' ? 'identity' : 'encoding';
    }
    if (state === 'encoding') {
      res.removeHeader('content-length');
      res.setHeader('content-encoding', coding);
      // The compressed body is another representation: a strong validator of the original no longer fits it.
      const etag = headerValue(res.getHeader('etag'));
      if (etag && !etag.startsWith('W/')) res.setHeader('etag', `W/${etag}`);
      const size = held.reduce((n, b) => n + b.length, 0);
      // HEAD: the head a GET would get; Node sends no body whatever is written.
      if (req.method === 'HEAD') state = 'identity';
      else if (ended && size <= ONE_CALL_MAX_BYTES) {
        const body = compressWhole(coding as 'br' | 'gzip', Buffer.concat(held, size));
        held = [];
        res.setHeader('content-length', body.length);
        writeHead.call(res, res.statusCode);
        end.call(res, body, endCallback);
        return;
      } else startEncoder(createEncoder(coding as 'br' | 'gzip'));
    }
    writeHead.call(res, res.statusCode);
    const chunks = held;
    held = [];
    if (state === 'identity') {
      for (const chunk of chunks) write.call(res, chunk);
      if (ended) end.call(res, endCallback);
      return;
    }
    for (const chunk of chunks) encoder!.write(chunk);
    if (ended) encoder!.end();
    else flushSoon();
  };

  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (state !== 'pending') return writeHead.call(this, statusCode, ...(rest as [OutgoingHttpHeaders]));
    let headers: OutgoingHttpHeaders | readonly unknown[] | undefined;
    if (typeof rest[0] === 'string') [this.statusMessage, headers] = rest as [string, OutgoingHttpHeaders | undefined];
    else headers = rest[0] as OutgoingHttpHeaders | undefined;
    this.statusCode = statusCode;
    if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) this.setHeader(String(headers[i]), headers[i + 1] as string);
    else for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(name, value);
    return this;
  } as WriteHead;

  res.write = function (this: ServerResponse, chunk: unknown, encoding?: unknown, callback?: unknown) {
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
    if (state === 'identity') return write.call(this, chunk, encoding as BufferEncoding, callback as () => void);
    if (state === 'encoding') {
      const more = encoder!.write(toBuffer(chunk, encoding as BufferEncoding), callback as () => void);
      flushSoon();
      return more;
    }
    held.push(toBuffer(chunk, encoding as BufferEncoding));
    if (typeof callback === 'function') process.nextTick(callback as () => void);
    if (!settleQueued) {
      settleQueued = true;
      setImmediate(settle);
    }
    return true;
  } as ServerResponse['write'];

  res.end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    if (typeof chunk === 'function') [callback, chunk] = [chunk, undefined];
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
    if (state === 'identity') return end.call(this, chunk, encoding as BufferEncoding, callback as () => void);
    if (ended) return this;
    ended = true;
    endCallback = callback as (() => void) | undefined;
    if (state === 'encoding') {
      if (chunk != null) encoder!.end(toBuffer(chunk, encoding as BufferEncoding));
      else encoder!.end();
      return this;
    }
    if (chunk != null) held.push(toBuffer(chunk, encoding as BufferEncoding));
    settle();
    return this;
  } as ServerResponse['end'];
}
