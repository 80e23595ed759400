/**
 * Reliability: every JSON endpoint of DESIGN §6 fed random and malformed bodies, query strings and
 * ids answers a 4xx (or a 2xx where the input happens to be valid), never a 5xx, and input it
 * rejects changes nothing.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { forEachApp, openAppDb } from '../helpers/app';

type Endpoint = { method: string; path: string; body?: boolean; query?: boolean };

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/api/login', body: true },
  { method: 'DELETE', path: '/api/login' },
  { method: 'POST', path: '/api/users', body: true },
  { method: 'POST', path: '/api/password/forgot', body: true },
  { method: 'POST', path: '/api/password/reset', body: true },
  { method: 'GET', path: '/api/me' },
  { method: 'PATCH', path: '/api/me', body: true },
  { method: 'DELETE', path: '/api/me', body: true },
  { method: 'PUT', path: '/api/me/password', body: true },
  { method: 'GET', path: '/api/areas' },
  { method: 'GET', path: '/api/stores', query: true },
  { method: 'GET', path: '/api/stores/:id' },
  { method: 'GET', path: '/api/stores/:id/availability', query: true },
  { method: 'POST', path: '/api/bookings', body: true },
  { method: 'GET', path: '/api/bookings' },
  { method: 'GET', path: '/api/bookings/:id' },
  { method: 'PATCH', path: '/api/bookings/:id', body: true },
  { method: 'DELETE', path: '/api/bookings/:id' },
  { method: 'POST', path: '/api/guest-bookings', body: true },
  { method: 'GET', path: '/api/guest-bookings/:id' },
  { method: 'PATCH', path: '/api/guest-bookings/:id', body: true },
  { method: 'DELETE', path: '/api/guest-bookings/:id' },
  { method: 'GET', path: '/api/favourites' },
  { method: 'PUT', path: '/api/favourites/:id' },
  { method: 'DELETE', path: '/api/favourites/:id' },
  { method: 'GET', path: '/api/history' },
  { method: 'GET', path: '/api/availability/stream', query: true },
];

const ids = fc.oneof(
  fc.constantFrom('1', '0', '-1', '99999999999999999999', '1.5', 'abc', '%00', '1;drop table users', '%E7%84%BC', '..%2F..', 'NaN', ' 1'),
  fc.integer({ min: -10, max: 2_000_000 }).map(String),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);
const queries = fc.dictionary(
  fc.constantFrom('name', 'area', 'genre', 'party', 'lat', 'lng', 'page', 'per_page', 'date', 'stores', 'x'),
  fc.oneof(fc.string({ maxLength: 40 }), fc.integer().map(String), fc.double().map(String), fc.constantFrom('', '200', '-1', '999', '2026-02-30', 'a'.repeat(10_000))),
);
const bodies = fc.oneof(
  fc.json().map((s) => ({ raw: s })),
  fc.object({ maxDepth: 3 }).map((o) => ({ raw: JSON.stringify(o) })),
  fc.record(
    {
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.integer()),
      password: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null)),
      name: fc.oneof(fc.string({ maxLength: 300 }), fc.array(fc.string())),
      store_id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      start: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string()),
      party_size: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.string()),
      note: fc.string({ maxLength: 3000 }),
      token: fc.string({ maxLength: 100 }),
      agree: fc.oneof(fc.boolean(), fc.string()),
    },
    { requiredKeys: [] },
  ).map((o) => ({ raw: JSON.stringify(o) })),
  fc.constantFrom({ raw: '{' }, { raw: 'null' }, { raw: '[]' }, { raw: '"text"' }, { raw: '' }, { raw: '{"a":' + '1'.repeat(70_000) + '}' }),
);

const COUNTS = `select
  (select count(*)::int from users) as users,
  (select count(*)::int from sessions) as sessions,
  (select count(*)::int from bookings) as bookings,
  (select count(*)::int from bookings where status = 'cancelled') as cancelled,
  (select count(*)::int from favourites) as favourites,
  (select count(*)::int from password_resets) as resets`;

forEachApp('fuzzing every endpoint', (app) => {
  it('never answers 5xx, and a request it rejects changes nothing', async () => {
    // Row counts are read around every rejected write on PostgreSQL (the embedded database is
    // locked by its server); on PGlite the status check alone applies.
    const db = app().engine === 'postgres' ? await openAppDb(app()) : null;
    const counts = async () => (db ? JSON.stringify((await db.sql.unsafe(COUNTS))[0]) : '');
    const failures: string[] = [];
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ENDPOINTS), ids, queries, bodies, async (ep, id, query, body) => {
          const path = ep.path.replace(':id', id);
          const qs = ep.query ? '?' + new URLSearchParams(query).toString() : '';
          const writes = ep.method !== 'GET';
          const before = writes ? await counts() : '';
          const controller = new AbortController();
          const res = await app().fetch(path + qs, {
            method: ep.method,
            headers: { 'content-type': 'application/json', 'accept-language': 'ja' },
            body: ep.body ? body.raw : undefined,
            signal: controller.signal,
          });
          // The live stream stays open on valid input; its status is what matters.
          controller.abort();
          const label = `${ep.method} ${path}${qs.slice(0, 80)} → ${res.status}`;
          if (res.status >= 500) failures.push(label);
          if (writes && res.status >= 400 && (await counts()) !== before) failures.push(`${label} changed data`);
          return res.status < 500;
        }),
        { numRuns: 400, seed: 20261121 },
      );
    } finally {
      await db?.close();
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
