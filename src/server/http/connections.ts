/**
 * What one client may hold of the server's connections: a slow client (a header line every few
 * seconds, a body that never ends) costs a file and memory for as long as the server waits, so the
 * waits are seconds, and one address's share is capped. Past a cap only that address is refused,
 * newest first: its extra connections are closed as they open, its extra requests answered 429;
 * everyone else's connections are never touched.
 *
 * Open connections are counted by the connection's own address: a connection from a trusted proxy
 * (TRUST_PROXY) carries many clients and is not capped by address. Requests in flight are counted
 * by client, the proxy's client behind a trusted proxy (src/server/http/client.ts).
 *
 * Loaded by scripts/start.mjs with Node's own TypeScript support (see edge.ts): `.ts` imports only.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { normaliseAddress, resolveClient, type ClientSettings } from './client.ts';

export interface ConnectionLimits {
  connectionsPerAddress: number;
  requestsPerAddress: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  client: Pick<ClientSettings, 'trusted' | 'header'>;
}

/** The limits as the configuration sets them (src/server/config.ts). */
export function connectionLimits(c: {
  CONNECTIONS_PER_ADDRESS: number;
  REQUESTS_PER_ADDRESS: number;
  HEADERS_TIMEOUT_SECONDS: number;
  REQUEST_TIMEOUT_SECONDS: number;
  TRUST_PROXY: ClientSettings['trusted'];
  PROXY_HEADER: ClientSettings['header'];
}): ConnectionLimits {
  return {
    connectionsPerAddress: c.CONNECTIONS_PER_ADDRESS,
    requestsPerAddress: c.REQUESTS_PER_ADDRESS,
    headersTimeoutMs: c.HEADERS_TIMEOUT_SECONDS * 1000,
    // Node requires the whole request's limit to be at least the head's.
    requestTimeoutMs: Math.max(c.REQUEST_TIMEOUT_SECONDS, c.HEADERS_TIMEOUT_SECONDS) * 1000,
    client: { trusted: c.TRUST_PROXY, header: c.PROXY_HEADER },
  };
}

function isTrusted(limits: ConnectionLimits, address: string): boolean {
  const list = limits.client.trusted;
  return !!list && list.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
}

/** Adds one to `key`'s count, or refuses (false) when it is at `max`; `release` takes it back. */
function counter() {
  const counts = new Map<string, number>();
  return {
    take(key: string, max: number): boolean {
      const n = counts.get(key) ?? 0;
      if (n >= max) return false;
      counts.set(key, n + 1);
      return true;
    },
    release(key: string) {
      const n = (counts.get(key) ?? 1) - 1;
      if (n > 0) counts.set(key, n);
      else counts.delete(key);
    },
  };
}

/** The client of a request, by the connection's address or, from a trusted proxy, the proxy's header. */
export function requestClient(req: IncomingMessage, limits: ConnectionLimits): string {
  const peer = normaliseAddress(req.socket.remoteAddress ?? '');
  if (!limits.client.trusted) return peer;
  const headers = new Headers();
  for (const name of ['forwarded', 'x-forwarded-for', 'x-forwarded-proto']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return resolveClient(peer, headers, 'http:', { ...limits.client, publicHttps: false }).address;
}

/**
 * Puts the caps and timeouts on `server`. Returns `admit`, for the request handler to ask first:
 * false when the request's client already has `requestsPerAddress` requests in flight (the caller
 * answers 429); otherwise the request is counted until its response closes.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): { admit(req: IncomingMessage, res: ServerResponse): boolean } {
  // Node's own checks run every 30 s; the timer below closes a connection that never sends a head on time.
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  const sockets = counter();
  const requests = counter();
  const waitingForHead = new WeakMap<Socket, NodeJS.Timeout>();

  server.on('connection', (socket: Socket) => {
    const peer = normaliseAddress(socket.remoteAddress ?? '');
    if (!isTrusted(limits, peer)) {
      if (!sockets.take(peer, limits.connectionsPerAddress)) {
        socket.destroy();
        return;
      }
      socket.once('close', () => sockets.release(peer));
    }
    const timer = setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref();
    waitingForHead.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });

  return {
    admit(req, res) {
      const timer = waitingForHead.get(req.socket);
      if (timer) {
        clearTimeout(timer);
        waitingForHead.delete(req.socket);
      }
      const client = requestClient(req, limits);
      if (!requests.take(client, limits.requestsPerAddress)) return false;
      res.once('close', () => requests.release(client));
      return true;
    },
  };
}
