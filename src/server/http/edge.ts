/**
 * The HTTP edge: what the Node server answers itself, before a request reaches Astro. Astro cannot
 * build a Request for TRACE (the fetch standard forbids it) and the node adapter answers a bad
 * %-encoding with a bare text 400; Node answers oversized headers with a bodiless 431. Here each
 * of them is a clear 4xx, in the API's JSON envelope under /api, translated like every other answer.
 *
 * Every request body is read here too, before any route runs, and refused past BODY_MAX_BYTES
 * (src/lib/contract/limits.ts): one cap for every form and endpoint, declared or chunked.
 *
 * Loaded by scripts/start.mjs with Node's own TypeScript support, outside Vite: imports carry
 * their `.ts` extension and nothing here may need a bundler.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { detectLocale } from '../../i18n/detect.ts';
import { translatorFor } from '../../i18n/index.ts';
import { FALLBACK_LOCALE, LOCALE_COOKIE, RTL_LOCALES, type Locale } from '../../i18n/locales.ts';
import { BODY_MAX_BYTES } from '../../lib/contract/limits.ts';
import { errorBody } from './envelope.ts';
import type { ErrorCode } from '../../lib/contract/errors.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { compressResponse } from './compress.ts';
import { serveStatic, type Assets } from './static.ts';
import { limitConnections, type ConnectionLimits } from './connections.ts';
import { log } from '../log.ts';
import { sentRequestId } from './requestId.ts';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

interface Refusal {
  status: number;
  code: ErrorCode;
  messageKey: MessageKey;
  headers?: Record<string, string>;
}

/** What the edge refuses of a parsed request, or null to pass it on to the app. */
export function refusal(method: string | undefined, url: string | undefined): Refusal | null {
  // The fetch standard forbids TRACE (it would echo cookies back to a script: cross-site tracing);
  // TRACK and CONNECT never get here (Node's parser refuses the one and routes the other apart).
  if (method === 'TRACE') {
    return { status: 405, code: 'method_not_allowed', messageKey: 'api.error.methodNotAllowed', headers: { allow: ALLOWED_METHODS } };
  }
  try {
    decodeURI(url ?? '/');
  } catch {
    return { status: 400, code: 'bad_request', messageKey: 'api.error.badUrl' };
  }
  return null;
}

function cookieLocale(cookie: string | undefined): string | undefined {
  return cookie?.match(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`))?.[1];
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of its own for a refusal a browser shows (a form post too large): the message and the way home. */
function refusalPage(locale: Locale, message: string, home: string): string {
  const dir = RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr';
  return `<!doctype html>\n<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(message)}</title></head>\n<body><h1>${escapeHtml(message)}</h1><p><a href="/home">${escapeHtml(home)}</a></p></body></html>\n`;
}

/** The answer's head and body: the JSON envelope under /api, a short translated page elsewhere. */
export function refusalResponse(r: Refusal, request: { url?: string; headers: IncomingMessage['headers'] } | null) {
  const locale = request ? detectLocale({ cookie: cookieLocale(request.headers.cookie), acceptLanguage: request.headers['accept-language'] }) : FALLBACK_LOCALE;
  const t = translatorFor(locale);
  const message = t(r.messageKey);
  // Without a parsed request (a header block too large to read) the path is unknown: JSON then.
  const api = !request || (request.url ?? '').startsWith('/api/');
  const body = api ? JSON.stringify(errorBody(r.code, message)) : refusalPage(locale, message, t('common.backHome'));
  const headers: Record<string, string> = {
    'content-type': api ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...r.headers,
  };
  return { status: r.status, headers, body };
}

/** Errors of the HTTP parser, as the status Node itself would have sent. */
function parserRefusal(error: NodeJS.ErrnoException): Refusal {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'headers_too_large', messageKey: 'api.error.headersTooLarge' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'request_timeout', messageKey: 'api.error.requestTimeout' };
  return { status: 400, code: 'bad_request', messageKey: 'api.error.badRequest' };
}

function onClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  // As Node's own handler: answer only when nothing of a response has gone out on this socket.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, headers, body } = refusalResponse(parserRefusal(error), null);
  const head = Object.entries({ ...headers, connection: 'close' })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}

/** How long a refused upload's connection stays half open, dropping what still arrives. */
const LINGER_MS = 2_000;

/**
 * Node destroys a `connection: close` socket as soon as the answer is written. While the client is
 * still sending, the unread bytes make that close a reset, which can reach the client before it has
 * read the answer: it would see a broken connection instead of the 413. So this socket only closes
 * its sending side at first; what still arrives is read and dropped, and the socket goes when the
 * client hangs up or after LINGER_MS.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}

const tooLarge: Refusal = { status: 413, code: 'body_too_large', messageKey: 'validation.bodyTooLarge' };
/** One client with REQUESTS_PER_ADDRESS requests in flight already (src/server/http/connections.ts). */
const tooBusy: Refusal = { status: 429, code: 'rate_limited', messageKey: 'api.error.rateLimited', headers: { 'retry-after': '5' } };

/**
 * Reads the request's body, whole, into `req.body` (where the node adapter takes it from) and then
 * calls `pass`; past BODY_MAX_BYTES answers 413 at once and closes the connection, keeping nothing
 * of what was sent. A declared Content-Length over the cap is refused before a byte is read; a
 * chunked body when its running count passes the cap. Memory per request is thus the cap at most,
 * whatever the route does with the body.
 */
function readBody(req: IncomingMessage, res: ServerResponse, pass: () => void): void {
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (declared === undefined || declared === '0')) {
    pass();
    return;
  }
  const refuse = () => {
    const { status, headers, body } = refusalResponse(tooLarge, req);
    lingerOnClose(req.socket);
    res.writeHead(status, { ...headers, connection: 'close' });
    res.end(req.method === 'HEAD' ? undefined : body);
    // Whatever else arrives is dropped until the connection closes.
    req.removeAllListeners('data');
    req.on('data', () => {});
  };
  // Node's parser refuses a Content-Length that is not a number, and one alongside Transfer-Encoding.
  if (!chunked && Number(declared) > BODY_MAX_BYTES) {
    refuse();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_MAX_BYTES) {
      chunks.push(chunk);
      return;
    }
    req.off('end', onEnd);
    chunks.length = 0;
    refuse();
  };
  const onEnd = () => {
    (req as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks);
    pass();
  };
  req.on('data', onData);
  req.once('end', onEnd);
  // An upload cut short: nobody is left to answer, and it is not the server's fault (as api() logs it).
  req.once('close', () => {
    if (req.complete || size > BODY_MAX_BYTES) return;
    const requestId = sentRequestId(String(req.headers['x-request-id'] ?? ''));
    log('info', 'client_aborted', { path: (req.url ?? '/').split('?')[0], requestId });
  });
}

/**
 * Puts the edge in front of the app's request handler on `server` (the node adapter's standalone
 * server, before it accepts its first connection): the per-client caps and timeouts of `limits`
 * (src/server/http/connections.ts), refusals, then the body cap, then the
 * build's static files (src/server/http/static.ts), then the app, its answers compressed
 * (src/server/http/compress.ts).
 */
export function guardServer(server: Server, options: { assets?: Assets; limits?: ConnectionLimits } = {}): void {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  const connections = options.limits ? limitConnections(server, options.limits) : null;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (connections && !connections.admit(req, res)) {
      const { status, headers, body } = refusalResponse(tooBusy, req);
      lingerOnClose(req.socket);
      res.writeHead(status, { ...headers, connection: 'close' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const refused = refusal(req.method, req.url);
    if (!refused) {
      readBody(req, res, () => {
        if (options.assets && serveStatic(options.assets, req, res)) return;
        compressResponse(req, res);
        for (const handler of handlers) handler.call(server, req, res);
      });
      return;
    }
    const { status, headers, body } = refusalResponse(refused, req);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  server.on('clientError', onClientError);
}
