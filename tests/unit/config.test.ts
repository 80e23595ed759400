import { describe, expect, it } from 'vitest';
import { ConfigError, OPERATOR_PHONE_PLACEHOLDER, parseConfig } from '../../src/server/config';

describe('configuration (DESIGN §6)', () => {
  it('has the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({ PORT: 4321, HOST: 'localhost', DATA_DIR: './data', PUBLIC_MAPS_KEY: '', PUBLIC_ANALYTICS_ID: '' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.MAIL_FROM).toBe('すぐ予約 <no-reply@sugu.jp>');
    expect(parseConfig({ MAIL_FROM: 'reservations@example.jp' }).MAIL_FROM).toBe('reservations@example.jp');
  });
  it('serves the store host on store.localhost at the same port unless told otherwise', () => {
    expect(parseConfig({}).STORE_HOST).toBe('http://store.localhost:4321');
    expect(parseConfig({ PORT: '5000' }).STORE_HOST).toBe('http://store.localhost:5000');
    expect(parseConfig({ STORE_HOST: 'https://store.example.jp/' }).STORE_HOST).toBe('https://store.example.jp');
  });
  it('shows the placeholder phone on the legal notice until the operator sets a real number', () => {
    expect(parseConfig({}).OPERATOR_PHONE).toBe(OPERATOR_PHONE_PLACEHOLDER);
    expect(parseConfig({ OPERATOR_PHONE: '' }).OPERATOR_PHONE).toBe(OPERATOR_PHONE_PLACEHOLDER);
    expect(parseConfig({ OPERATOR_PHONE: ' 03-6555-0123 ' }).OPERATOR_PHONE).toBe('03-6555-0123');
  });
  it('reads the stream heartbeat (up to a day), the shutdown grace (0 allowed) and request logging, empty as unset', () => {
    expect(parseConfig({})).toMatchObject({ SUGU_SSE_HEARTBEAT_MS: 15_000, SHUTDOWN_TIMEOUT_MS: 10_000, SUGU_LOG_REQUESTS: true });
    expect(parseConfig({ SUGU_SSE_HEARTBEAT_MS: '', SHUTDOWN_TIMEOUT_MS: '' })).toMatchObject({ SUGU_SSE_HEARTBEAT_MS: 15_000, SHUTDOWN_TIMEOUT_MS: 10_000 });
    // An hour: what a test sets so that nothing but events goes out on a stream.
    expect(parseConfig({ SUGU_SSE_HEARTBEAT_MS: '3600000', SHUTDOWN_TIMEOUT_MS: '0', SUGU_LOG_REQUESTS: '0' })).toMatchObject({
      SUGU_SSE_HEARTBEAT_MS: 3_600_000,
      SHUTDOWN_TIMEOUT_MS: 0,
      SUGU_LOG_REQUESTS: false,
    });
    for (const bad of [{ SUGU_SSE_HEARTBEAT_MS: '0' }, { SUGU_SSE_HEARTBEAT_MS: '90000000' }, { SHUTDOWN_TIMEOUT_MS: '-1' }]) {
      expect(() => parseConfig(bad)).toThrow(ConfigError);
    }
  });
  it('sets the server clock only from an instant with its offset', () => {
    expect(parseConfig({}).SUGU_CLOCK).toBeUndefined();
    expect(parseConfig({ SUGU_CLOCK: '2026-11-20T19:10:00+09:00' }).SUGU_CLOCK).toEqual(new Date('2026-11-20T10:10:00Z'));
  });
  it('turns a sign-in provider on with its issuer, client id and secret together, https or on this machine', () => {
    const line = { OIDC_LINE_ISSUER: 'https://access.line.me', OIDC_LINE_CLIENT_ID: '1234567890', OIDC_LINE_CLIENT_SECRET: 'secret' };
    expect(parseConfig(line).OIDC_LINE_ISSUER).toBe('https://access.line.me');
    expect(parseConfig({}).OIDC_LINE_ISSUER).toBeUndefined();
    expect(parseConfig({ ...line, OIDC_LINE_ISSUER: 'http://127.0.0.1:4000' }).OIDC_LINE_ISSUER).toBe('http://127.0.0.1:4000');
    expect(() => parseConfig({ ...line, OIDC_LINE_ISSUER: 'http://access.line.me' })).toThrow(/OIDC_LINE_ISSUER/);
    // Half a provider names what is missing.
    expect(() => parseConfig({ OIDC_LINE_ISSUER: line.OIDC_LINE_ISSUER, OIDC_LINE_CLIENT_ID: '1' })).toThrow(/OIDC_LINE_CLIENT_SECRET/);
    expect(() => parseConfig({ OIDC_GOOGLE_CLIENT_SECRET: 's' })).toThrow(/OIDC_GOOGLE_ISSUER/);
  });
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['STORE_HOST', 'not a url'],
    ['MAP_TILE_URL', 'https://tiles.example/no-placeholders.png'],
    ['SMTP_URL', 'http://mail'],
    ['MAIL_FROM', 'すぐ予約'],
    ['SUGU_CLOCK', '2026-11-20 19:10'],
    ['OPERATOR_PHONE', '12345'],
  ])('stops on a bad %s, naming it', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });
});
