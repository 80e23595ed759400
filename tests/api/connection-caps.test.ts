/**
 * One client cannot hold the server's connections: an address's connections past
 * CONNECTIONS_PER_ADDRESS are closed as they open (the newest, never another client's), a
 * connection that sends no whole head is closed after HEADERS_TIMEOUT_SECONDS (Node alone waits
 * 60 s and more), and a client's requests in flight past REQUESTS_PER_ADDRESS are answered 429,
 * behind a trusted proxy by the client the proxy names. Clients are told apart by source address
 * (127.0.0.x all reach the server on 127.0.0.1).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, until, type App } from '../helpers/app';
import { rawRequest } from '../helpers/raw';

const CONNECTIONS = 200;
const REQUESTS = 5;
const PROXY = '127.0.0.9';

interface Held {
  socket: net.Socket;
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A connection from `from` that writes `text` and then waits (a slow client). */
function hold(app: App, from: string, text: string): Promise<Held> {
  const { port } = new URL(app.url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
    let isClosed = false;
    const closed = new Promise<void>((r) => socket.once('close', () => ((isClosed = true), r())));
    socket.on('error', () => {});
    const held = { socket, closed, isClosed: () => isClosed };
    socket.once('connect', () => {
      socket.write(text);
      resolve(held);
    });
    socket.once('close', () => resolve(held));
  });
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`connection caps [${engine}]`, () => {
    let app: App;
    const held: Held[] = [];
    beforeAll(async () => {
      app = await startApp(engine, {
        CONNECTIONS_PER_ADDRESS: String(CONNECTIONS),
        REQUESTS_PER_ADDRESS: String(REQUESTS),
        HEADERS_TIMEOUT_SECONDS: '15',
        TRUST_PROXY: PROXY,
      });
    });
    afterAll(async () => {
      for (const h of held) h.socket.destroy();
      await app?.stop();
    });

    it('closes the newest connections of an address past its cap, serves another address meanwhile, and closes slow heads in seconds', async () => {
      const slow = 'GET /home HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n';
      const flood: Held[] = [];
      for (let i = 0; i < CONNECTIONS + 100; i++) flood.push(await hold(app, '127.0.0.3', slow));
      held.push(...flood);
      // The hundred past the cap are closed by the server; the first two hundred stay open.
      await Promise.all(flood.slice(CONNECTIONS).map((h) => h.closed));
      expect(flood.slice(0, CONNECTIONS).filter((h) => h.isClosed())).toHaveLength(0);
      // Another address is served, pages and API, while they are held.
      for (const path of ['/home', '/api/areas']) expect((await rawRequest(app, { path, from: '127.0.0.4' })).status).toBe(200);
      // The held connections never sent a whole head: the server closes them (Node alone: 60 to 90 s).
      await Promise.all(flood.map((h) => h.closed));
      // Its places come back: the address is served again.
      expect((await rawRequest(app, { path: '/home', from: '127.0.0.3' })).status).toBe(200);
    }, 60_000);

    it('answers 429 past a client’s requests in flight, behind a trusted proxy by the client it names, and no one else', async () => {
      const partial = (client: string) =>
        hold(
          app,
          PROXY,
          `POST /preferences HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: ${client}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ntheme=`,
        );
      const stuck: Held[] = [];
      for (let i = 0; i < REQUESTS; i++) stuck.push(await partial('203.0.113.1'));
      held.push(...stuck);
      const asClient = (client: string) =>
        rawRequest(app, { path: '/api/areas', from: PROXY, headers: { 'x-forwarded-for': client, 'accept-language': 'ja' } });
      // Once the server has the five, the same client's next request is refused.
      const refused = await until(async () => {
        const res = await asClient('203.0.113.1');
        return res.status === 429 ? res : undefined;
      }, 'a 429 for the client with five requests in flight');
      expect(refused.headers['retry-after']).toBeTruthy();
      expect(JSON.parse(refused.body).error.code).toBe('rate_limited');
      // Another client of the same proxy, and a client without one, are served.
      expect((await asClient('203.0.113.2')).status).toBe(200);
      expect((await rawRequest(app, { path: '/api/areas', from: '127.0.0.5' })).status).toBe(200);
      // The client's requests end: it is served again.
      for (const h of stuck) h.socket.destroy();
      await until(async () => (await asClient('203.0.113.1')).status === 200, 'the client served again');
    });
  });
}
