/**
 * Who is on the other end of a request: the client's address (for rate limits and stream caps)
 * and whether the browser reached the site over https (for Secure cookies and HSTS).
 *
 * Behind a reverse proxy every connection comes from the proxy, and the client's address is in the
 * header the proxy adds (PROXY_HEADER: X-Forwarded-For, or the standard Forwarded). That header is
 * believed only on connections from TRUST_PROXY, and only back to the first address that is not a
 * trusted proxy itself: a client can write anything into the header, but it cannot make a trusted
 * proxy say it. Without TRUST_PROXY (the default) the headers are ignored.
 */
import { isIP, type BlockList } from 'node:net';
import { config } from '../config.ts';

export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

export interface ClientSettings {
  trusted: BlockList | null;
  header: ProxyHeader;
  /** PUBLIC_ORIGIN is https: the site is served over https whatever the hop to Node is. */
  publicHttps: boolean;
}

export interface Client {
  address: string;
  secure: boolean;
}

/** `::ffff:127.0.0.1` (IPv4 on a dual-stack socket) is 127.0.0.1. */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

function trustedBy(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const unquote = (v: string) => v.trim().replace(/^"(.*)"$/, '$1');

/** A Forwarded `for=` node: `"[2001:db8::1]:4711"` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`. */
function forwardedFor(value: string): string {
  const v = unquote(value);
  const bracketed = v.match(/^\[([^\]]+)\]/);
  if (bracketed) return normaliseAddress(bracketed[1]!);
  return normaliseAddress(/^[\d.]+:\d+$/.test(v) ? v.slice(0, v.lastIndexOf(':')) : v);
}

/** The hops the proxies recorded, the client first and the nearest proxy's client last, each with its protocol when known. */
export function forwardedHops(headers: Headers, header: ProxyHeader): { address: string; proto?: string }[] {
  if (header === 'forwarded') {
    return (headers.get('forwarded') ?? '')
      .split(',')
      .filter((element) => element.trim())
      .map((element) => {
        const pairs = element.split(';').map((p) => [p.slice(0, p.indexOf('=')).trim().toLowerCase(), p.slice(p.indexOf('=') + 1)] as const);
        const params = new Map(pairs);
        return { address: forwardedFor(params.get('for') ?? ''), proto: params.has('proto') ? unquote(params.get('proto')!).toLowerCase() : undefined };
      });
  }
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .filter((a) => a.trim())
    .map((a) => ({ address: normaliseAddress(a) }) as { address: string; proto?: string });
  // X-Forwarded-Proto is set by the proxy that faced the browser.
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (proto && hops[0]) hops[0].proto = proto;
  return hops;
}

/**
 * The client of a request that arrived on a connection from `peer`.
 * @example resolveClient('10.0.0.2', new Headers({ 'x-forwarded-for': '203.0.113.7' }), 'http:', { trusted: parseProxyList('10.0.0.0/8'), header: 'x-forwarded-for', publicHttps: false }) // { address: '203.0.113.7', secure: false }
 */
export function resolveClient(peer: string, headers: Headers, protocol: string, settings: ClientSettings): Client {
  let address = normaliseAddress(peer);
  let secure = settings.publicHttps || protocol === 'https:';
  if (settings.trusted && trustedBy(settings.trusted, address)) {
    const hops = forwardedHops(headers, settings.header);
    let proto: string | undefined;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (!isIP(hop.address)) break;
      address = hop.address;
      proto = hop.proto ?? proto;
      if (!trustedBy(settings.trusted, hop.address)) break;
    }
    if (settings.header === 'x-forwarded-for') proto = hops[0]?.proto;
    secure ||= proto === 'https';
  }
  return { address, secure };
}

/** resolveClient with the configured TRUST_PROXY, PROXY_HEADER and PUBLIC_ORIGIN. */
export function clientOf(peer: string, request: Request, url: URL): Client {
  const c = config();
  return resolveClient(peer, request.headers, url.protocol, {
    trusted: c.TRUST_PROXY,
    header: c.PROXY_HEADER,
    publicHttps: c.PUBLIC_ORIGIN?.startsWith('https:') ?? false,
  });
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let a = address.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The group a client address is counted in by every per-address limit: an IPv4 address alone
 * (/32), an IPv6 address by its /64, the smallest block a provider hands one subscriber; counting
 * exact IPv6 addresses would give each client 2^64 fresh tries.
 * @example addressGroup('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * @example addressGroup('::ffff:192.0.2.7') // '192.0.2.7'
 */
export function addressGroup(address: string): string {
  const a = normaliseAddress(address);
  if (isIP(a) !== 6) return a;
  return `${ipv6Groups(a)
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
