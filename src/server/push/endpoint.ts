/**
 * Which push endpoints the server will post to. A subscription's endpoint is the client's to
 * choose, so without a rule it would make the server send requests anywhere (into the private
 * network, to this machine): only https: on a public host name or address is taken. A test's
 * local endpoint is accepted only with PUSH_ALLOW_LOCAL_ENDPOINTS.
 */
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Names that stay inside a network (RFC 6761, 6762 and common practice). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;

/** Whether `host` (a URL's hostname) is this machine or a private network. */
export function isPrivateHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const family = isIP(bare);
  if (family) return PRIVATE.check(bare, family === 6 ? 'ipv6' : 'ipv4');
  // A single label (`router`) resolves only inside a network.
  return LOCAL_NAME.test(bare) || !bare.includes('.');
}

/** Whether the server may post to `endpoint`; `allowLocal` for tests' own endpoints. */
export function acceptableEndpoint(endpoint: string, allowLocal: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  if (allowLocal && (url.protocol === 'http:' || url.protocol === 'https:')) return true;
  return url.protocol === 'https:' && !isPrivateHost(url.hostname);
}
