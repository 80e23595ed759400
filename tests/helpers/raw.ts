/**
 * Requests exactly as written, for what fetch cannot send: no Origin added, raw bytes, methods
 * such as TRACE, and a chosen source address (any 127.x.y.z reaches a server on 127.0.0.1, so
 * tests can be several clients from one machine).
 *
 *   const res = await rawRequest(app, { path: '/api/areas', from: '127.0.0.2' });
 *   const stream = await openRaw(app, { path: '/api/availability/stream?stores=1', from: '127.0.0.3' });
 */
import http from 'node:http';
import type { App } from './app';

export interface RawOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Source address of the connection (default: the system's choice, 127.0.0.1). */
  from?: string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An open response whose body is still arriving (an event stream); `close()` hangs up. */
export interface OpenResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Everything received so far. */
  text(): string;
  /** Resolves when the received text matches `pattern`, rejects if the response ends first. */
  waitFor(pattern: RegExp): Promise<void>;
  /** Resolves when the server has ended the response. */
  ended: Promise<void>;
  close(): void;
}

function request(app: App, options: RawOptions): http.ClientRequest {
  const { port, hostname } = new URL(app.url);
  // A fresh connection each time: a pooled one would keep the address of an earlier request.
  return http.request({
    host: hostname,
    port,
    method: options.method ?? 'GET',
    path: options.path,
    headers: options.headers,
    localAddress: options.from,
    agent: false,
  });
}

/** Sends one request and reads the whole answer. */
export function rawRequest(app: App, options: RawOptions): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(app, options);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends one request and returns as soon as the head arrives, keeping the body open. */
export function openRaw(app: App, options: RawOptions): Promise<OpenResponse> {
  return new Promise((resolve, reject) => {
    const req = request(app, options);
    req.on('error', reject);
    req.on('response', (res) => {
      let received = '';
      let done = false;
      const waiters = new Set<() => void>();
      let finish!: () => void;
      const ended = new Promise<void>((r) => (finish = r));
      const settle = () => {
        done = true;
        finish();
        for (const wake of waiters) wake();
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        received += chunk;
        for (const wake of waiters) wake();
      });
      res.on('end', settle);
      res.on('close', settle);
      res.on('error', () => {});
      resolve({
        status: res.statusCode!,
        headers: res.headers,
        text: () => received,
        ended,
        waitFor(pattern) {
          return new Promise<void>((ok, fail) => {
            const check = () => {
              if (pattern.test(received)) {
                waiters.delete(check);
                ok();
              } else if (done) {
                waiters.delete(check);
                fail(new Error(`the response ended without ${pattern}`));
              }
            };
            waiters.add(check);
            check();
          });
        },
        close() {
          req.destroy();
          res.destroy();
        },
      });
    });
    req.end(options.body);
  });
}
