/**
 * Reliability: every JSON endpoint of DESIGN §6 fed random and malformed bodies, query strings and
 * ids, as a signed-in diner (so the bodies reach the parsers behind the sign-in check), answers a
 * 4xx (or a 2xx where the input happens to be valid), never a 5xx, and input it rejects changes
 * nothing — checked around every rejected write on PostgreSQL, and over the whole run on PGlite
 * (whose database only its own server may open while it runs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { openAppDb, startApp, type App, type Engine } from '../helpers/app';
import { openDb } from '../../src/server/db/client';
import { DEMO_STAFF, DEMO_USER } from '../../src/server/db/seed-data';

type Table = 'users' | 'sessions' | 'bookings' | 'favourites' | 'history' | 'resets' | 'banners';
/** `writes`: the tables the endpoint may change when it accepts a request; `staff`: sent as the demo store's staff. */
type Endpoint = { method: string; path: string; body?: boolean; query?: boolean; writes?: Table[]; signedOut?: boolean; staff?: boolean };

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/api/login', body: true, writes: ['sessions'], signedOut: true },
  // Sent without the session: signing out would end the run's session.
  { method: 'DELETE', path: '/api/login', writes: ['sessions'], signedOut: true },
  { method: 'POST', path: '/api/users', body: true, writes: ['users', 'sessions'], signedOut: true },
  { method: 'POST', path: '/api/password/forgot', body: true, writes: ['resets'], signedOut: true },
  { method: 'POST', path: '/api/password/reset', body: true, writes: ['users', 'sessions', 'resets'], signedOut: true },
  { method: 'GET', path: '/api/me' },
  { method: 'PATCH', path: '/api/me', body: true, writes: ['users'] },
  { method: 'DELETE', path: '/api/me', body: true, writes: ['users', 'sessions', 'bookings', 'favourites', 'history'] },
  { method: 'PUT', path: '/api/me/password', body: true, writes: ['users', 'sessions'] },
  { method: 'GET', path: '/api/areas' },
  { method: 'GET', path: '/api/stores', query: true },
  { method: 'GET', path: '/api/stores/:id' },
  { method: 'GET', path: '/api/stores/:id/availability', query: true },
  { method: 'POST', path: '/api/bookings', body: true, writes: ['bookings'] },
  { method: 'GET', path: '/api/bookings' },
  { method: 'GET', path: '/api/bookings/:id' },
  { method: 'PATCH', path: '/api/bookings/:id', body: true, writes: ['bookings'] },
  { method: 'DELETE', path: '/api/bookings/:id', writes: ['bookings'] },
  { method: 'POST', path: '/api/guest-bookings', body: true, writes: ['bookings'] },
  { method: 'GET', path: '/api/guest-bookings/:id' },
  { method: 'PATCH', path: '/api/guest-bookings/:id', body: true, writes: ['bookings'] },
  { method: 'DELETE', path: '/api/guest-bookings/:id', writes: ['bookings'] },
  { method: 'GET', path: '/api/favourites' },
  { method: 'PUT', path: '/api/favourites/:id', writes: ['favourites'] },
  { method: 'DELETE', path: '/api/favourites/:id', writes: ['favourites'] },
  { method: 'GET', path: '/api/history' },
  { method: 'GET', path: '/api/availability/stream', query: true },
  { method: 'POST', path: '/api/watches', body: true },
  { method: 'GET', path: '/api/watches' },
  { method: 'DELETE', path: '/api/watches/:id' },
  { method: 'POST', path: '/api/watches/confirm', body: true, signedOut: true },
  { method: 'GET', path: '/api/store/bookings', query: true, staff: true },
  { method: 'PATCH', path: '/api/store/bookings/:id', body: true, writes: ['bookings'], staff: true },
  { method: 'GET', path: '/api/store/tables', query: true, staff: true },
  { method: 'GET', path: '/api/store/blocks', query: true, staff: true },
  { method: 'POST', path: '/api/store/blocks', body: true, writes: ['bookings'], staff: true },
  { method: 'DELETE', path: '/api/store/blocks/:id', writes: ['bookings'], staff: true },
  { method: 'GET', path: '/api/store/stream', query: true, staff: true },
  { method: 'POST', path: '/api/store/bookings', body: true, writes: ['bookings'], staff: true },
  { method: 'GET', path: '/api/store/walk-ins', query: true, staff: true },
  { method: 'POST', path: '/api/store/walk-ins', body: true, writes: ['bookings'], staff: true },
  { method: 'GET', path: '/api/store/walk-ins/suggest', query: true, staff: true },
  { method: 'POST', path: '/api/store/walk-ins/:id/free', writes: ['bookings'], staff: true },
  { method: 'GET', path: '/api/store/banners', query: true, staff: true },
  { method: 'POST', path: '/api/store/banners', body: true, writes: ['banners'], staff: true },
  { method: 'GET', path: '/api/store/banners/:id', staff: true },
  { method: 'PATCH', path: '/api/store/banners/:id', body: true, writes: ['banners'], staff: true },
  { method: 'DELETE', path: '/api/store/banners/:id', writes: ['banners'], staff: true },
  { method: 'GET', path: '/api/openapi.json' },
];

const ids = fc.oneof(
  fc.constantFrom('1', '0', '-1', '99999999999999999999', '1.5', 'abc', '%00', '1;drop table users', '%E7%84%BC', '..%2F..', 'NaN', ' 1'),
  fc.integer({ min: -10, max: 2_000_000 }).map(String),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);
const queries = fc.dictionary(
  fc.constantFrom('name', 'area', 'genre', 'party', 'lat', 'lng', 'page', 'per_page', 'date', 'stores', 'store_id', 'x'),
  fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer().map(String),
    fc.double().map(String),
    fc.constantFrom('', '200', '-1', '999', '2026-02-30', 'a'.repeat(10_000)),
  ),
);
const bodies = fc.oneof(
  fc.json().map((s) => ({ raw: s })),
  fc.object({ maxDepth: 3 }).map((o) => ({ raw: JSON.stringify(o) })),
  fc
    .record(
      {
        email: fc.oneof(fc.emailAddress(), fc.string(), fc.integer()),
        password: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null)),
        name: fc.oneof(fc.string({ maxLength: 300 }), fc.array(fc.string())),
        store_id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        start: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string(),
        ),
        party_size: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.string()),
        note: fc.string({ maxLength: 3000 }),
        token: fc.string({ maxLength: 100 }),
        table_id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        end: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string(),
        ),
        mark: fc.oneof(fc.constantFrom('arrived', 'no_show', 'cancelled'), fc.string()),
        reason: fc.string({ maxLength: 300 }),
        agree: fc.oneof(fc.boolean(), fc.string()),
        title: fc.oneof(fc.string({ maxLength: 60 }), fc.integer()),
        body: fc.string({ maxLength: 200 }),
        link_to_store: fc.oneof(fc.boolean(), fc.string()),
        starts_on: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
          fc.string(),
        ),
        ends_on: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
          fc.string(),
        ),
      },
      { requiredKeys: [] },
    )
    .map((o) => ({ raw: JSON.stringify(o) })),
  fc.constantFrom({ raw: '{' }, { raw: 'null' }, { raw: '[]' }, { raw: '"text"' }, { raw: '' }, { raw: `{"a":${'1'.repeat(70_000)}}` }),
);

/** One digest per table: any change to a row a diner could make changes it. */
const DIGEST = `select
  (select md5(coalesce(string_agg(concat_ws('|', id, email, password_hash, name, name_kana, phone), ',' order by id), '')) from users) as users,
  (select md5(coalesce(string_agg(id, ',' order by id), '')) from sessions) as sessions,
  (select md5(coalesce(string_agg(concat_ws('|', id, status, starts_at, ends_at, party_size, table_id, seat_preference, note), ',' order by id), '')) from bookings) as bookings,
  (select md5(coalesce(string_agg(concat_ws('|', user_id, store_id), ',' order by user_id, store_id), '')) from favourites) as favourites,
  (select md5(coalesce(string_agg(concat_ws('|', user_id, store_id), ',' order by user_id, store_id), '')) from viewing_history) as history,
  (select md5(coalesce(string_agg(concat_ws('|', token_hash, used_at), ',' order by token_hash), '')) from password_resets) as resets,
  (select md5(coalesce(string_agg(concat_ws('|', id, store_id, title, body, link_to_store, starts_on, ends_on), ',' order by id), '')) from campaign_banners) as banners`;
type Digest = Record<Table, string>;

const digestOf = async (sql: { unsafe(q: string): Promise<unknown[]> }) => (await sql.unsafe(DIGEST))[0] as Digest;

async function signIn(app: App, account: { email: string; password: string } = DEMO_USER): Promise<string> {
  const res = await app.fetch('/api/login', { method: 'POST', json: { email: account.email, password: account.password } });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The fuzz run on one engine; each engine has its own file, so that the two run side by side in two workers. */
export function fuzzEveryEndpoint(engine: Engine): void {
  describe(`fuzzing every endpoint [${engine}]`, () => {
    it('never answers 5xx, reaches every parser, and a request it rejects changes nothing', async () => {
      // PGlite: the run works on a copy of the seeded database that outlives its server, so it
      // can be read before the server starts and after it stops.
      const dataDir = engine === 'pglite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-fuzz-')) : undefined;
      if (dataDir) fs.cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
      const readDigest = async () => {
        const h = await openDb({ dataDir });
        try {
          return await digestOf(h.sql);
        } finally {
          await h.close();
        }
      };
      const initial = dataDir ? await readDigest() : null;
      const app = await startApp(engine, dataDir ? { DATA_DIR: dataDir } : {});
      const db = engine === 'postgres' ? await openAppDb(app) : null;
      const failures: string[] = [];
      const reached = new Set<string>();
      const accepted = new Set<Table>();
      try {
        const cookie = await signIn(app);
        const staffCookie = await signIn(app, DEMO_STAFF);
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...ENDPOINTS), ids, queries, bodies, async (ep, id, query, body) => {
            const path = ep.path.replace(':id', id);
            const qs = ep.query ? `?${new URLSearchParams(query).toString()}` : '';
            const before = ep.writes && db ? JSON.stringify(await digestOf(db.sql)) : '';
            const controller = new AbortController();
            const res = await app.fetch(path + qs, {
              method: ep.method,
              headers: { 'content-type': 'application/json', 'accept-language': 'ja' },
              cookie: ep.signedOut ? undefined : ep.staff ? staffCookie : cookie,
              body: ep.body ? body.raw : undefined,
              signal: controller.signal,
            });
            // The live stream stays open on valid input; its status is what matters.
            controller.abort();
            const label = `${ep.method} ${path}${qs.slice(0, 80)} → ${res.status}`;
            if (res.status >= 500) failures.push(label);
            // Signed in, nothing may stop at the door: a 401 means the session was lost.
            if (res.status === 401 && !ep.signedOut) failures.push(`${label} (signed in)`);
            // Staff calls: a 403 would mean the staff account was taken for a diner's.
            if (res.status === 403 && ep.staff) failures.push(`${label} (staff)`);
            if (res.status !== 401) reached.add(`${ep.method} ${ep.path}`);
            if (ep.writes && res.status < 400) for (const table of ep.writes) accepted.add(table);
            if (ep.writes && db && res.status >= 400 && JSON.stringify(await digestOf(db.sql)) !== before) failures.push(`${label} changed data`);
            return res.status < 500;
          }),
          { numRuns: 600, seed: 20261121 },
        );
      } finally {
        await db?.close();
        await app.stop();
      }
      expect(failures).toEqual([]);
      // Every endpoint answered past its sign-in check at least once.
      expect([...ENDPOINTS.map((ep) => `${ep.method} ${ep.path}`)].filter((e) => !reached.has(e))).toEqual([]);
      if (dataDir) {
        // Over the whole run: a table no accepted request may touch is exactly as it was.
        const after = await readDigest();
        fs.rmSync(dataDir, { recursive: true, force: true });
        const untouched = (Object.keys(initial!) as Table[]).filter((table) => !accepted.has(table));
        expect(untouched.length).toBeGreaterThan(0);
        for (const table of untouched) expect([table, after[table]]).toEqual([table, initial![table]]);
      }
    }, 300_000);
  });
}
