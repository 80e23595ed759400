import { describe, expect, it } from 'vitest';
import { parseProxyList } from '../../src/server/config';
import { resolveClient, type ClientSettings } from '../../src/server/http/client';

const proxies = (list: string, header: ClientSettings['header'] = 'x-forwarded-for', publicHttps = false): ClientSettings => ({
  trusted: parseProxyList(list),
  header,
  publicHttps,
});
const who = (peer: string, headers: Record<string, string>, settings: ClientSettings, protocol = 'http:') =>
  resolveClient(peer, new Headers(headers), protocol, settings);

describe('the client behind proxies (TRUST_PROXY)', () => {
  it('uses the connection when no proxy is trusted, whatever the headers say', () => {
    expect(who('::ffff:192.0.2.1', { 'x-forwarded-for': '203.0.113.1', 'x-forwarded-proto': 'https' }, proxies(''))).toEqual({
      address: '192.0.2.1',
      secure: false,
    });
  });

  it('walks back through trusted proxies to the first address that is not one', () => {
    const s = proxies('10.0.0.0/8, 127.0.0.1');
    expect(who('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.1.1.1' }, s).address).toBe('203.0.113.5');
    expect(who('127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 10.1.1.1' }, s).address).toBe('10.9.9.9');
    expect(who('127.0.0.1', { 'x-forwarded-for': 'garbage, 10.1.1.1' }, s).address).toBe('10.1.1.1');
    expect(who('127.0.0.1', {}, s).address).toBe('127.0.0.1');
    expect(who('192.0.2.9', { 'x-forwarded-for': '203.0.113.5' }, s).address).toBe('192.0.2.9');
  });

  it('reads the standard Forwarded header when told to, with quotes, ports and IPv6 brackets', () => {
    const s = proxies('127.0.0.1, ::1', 'forwarded');
    expect(who('::1', { forwarded: 'for="[2001:db8::17]:4711";proto=https, for=127.0.0.1' }, s)).toEqual({ address: '2001:db8::17', secure: true });
    expect(who('127.0.0.1', { forwarded: 'for=192.0.2.60:80;proto=http;by=203.0.113.43' }, s)).toEqual({ address: '192.0.2.60', secure: false });
    // The other header is not the proxy's: ignored.
    expect(who('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }, s).address).toBe('127.0.0.1');
  });

  it('is secure when PUBLIC_ORIGIN is https, on TLS, or when a trusted proxy says https', () => {
    expect(who('192.0.2.1', {}, proxies('', 'x-forwarded-for', true)).secure).toBe(true);
    expect(who('192.0.2.1', {}, proxies(''), 'https:').secure).toBe(true);
    expect(who('127.0.0.1', { 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' }, proxies('127.0.0.1')).secure).toBe(true);
    expect(who('192.0.2.1', { 'x-forwarded-proto': 'https' }, proxies('127.0.0.1')).secure).toBe(false);
  });

  it('refuses a TRUST_PROXY entry that is not an address or a range', () => {
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129', '10.0.0.0/x']) expect(() => parseProxyList(bad)).toThrow(bad);
    expect(parseProxyList(' , ')).toBeNull();
  });
});
