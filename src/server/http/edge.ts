/**
 * The HTTP edge: what the Node server answers itself, before a request reaches Astro. Astro cannot
 * build a Request for TRACE (the fetch standard forbids it) and the node adapter answers a bad
 * %-encoding with a bare text 400; Node answers oversized headers with a bodiless 431. Here each
 * of them is a clear 4xx, in the API's JSON envelope under /api, translated like every other answer.
 *
 * Loaded by scripts/start.mjs with Node's own TypeScript support, outside Vite: imports carry
 * their `.ts` extension and nothing here may need a bundler.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { detectLocale } from '../../i18n/detect.ts';
import { translatorFor } from '../../i18n/index.ts';
import { FALLBACK_LOCALE, LOCALE_COOKIE } from '../../i18n/locales.ts';
import { errorBody } from './envelope.ts';
import type { ErrorCode } from '../../lib/contract/errors.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { compressResponse } from './compress.ts';
import { serveStatic, type Assets } from './static.ts';

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

/** The answer's head and body: the JSON envelope under /api, one translated line elsewhere. */
export function refusalResponse(r: Refusal, request: { url?: string; headers: IncomingMessage['headers'] } | null) {
  const locale = request ? detectLocale({ cookie: cookieLocale(request.headers.cookie), acceptLanguage: request.headers['accept-language'] }) : FALLBACK_LOCALE;
  const message = translatorFor(locale)(r.messageKey);
  // Without a parsed request (a header block too large to read) the path is unknown: JSON then.
  const api = !request || (request.url ?? '').startsWith('/api/');
  const body = api ? JSON.stringify(errorBody(r.code, message)) : `${message}\n`;
  const headers: Record<string, string> = {
    'content-type': api ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
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
  const head = Object.entries({ ...headers, connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}

/**
 * Puts the edge in front of the app's request handler on `server` (the node adapter's standalone
 * server, before it accepts its first connection): refusals first, then the build's static files
 * (src/server/http/static.ts), then the app, its answers compressed (src/server/http/compress.ts).
 */
export function guardServer(server: Server, options: { assets?: Assets } = {}): void {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req.method, req.url);
    if (!refused) {
      if (options.assets && serveStatic(options.assets, req, res)) return;
      compressResponse(req, res);
      for (const handler of handlers) handler.call(server, req, res);
      return;
    }
    const { status, headers, body } = refusalResponse(refused, req);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  server.on('clientError', onClientError);
}
