import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config';

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
  it('sets the server clock only from an instant with its offset', () => {
    expect(parseConfig({}).SUGU_CLOCK).toBeUndefined();
    expect(parseConfig({ SUGU_CLOCK: '2026-11-20T19:10:00+09:00' }).SUGU_CLOCK).toEqual(new Date('2026-11-20T10:10:00Z'));
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
  ])('stops on a bad %s, naming it', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });
});
