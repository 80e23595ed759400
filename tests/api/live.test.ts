import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachApp, openAppDb, startApp, type App } from '../helpers/app';
import type { DbHandle } from '../../src/server/db/types';
import { allDayStoreIds, allDayStoreIdsOfTemplate, bookDirectly, eventually, SseStream, type Availability } from './live-sse';

const ISO_JST = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+09:00$/;
const env = { SUGU_SSE_HEARTBEAT_MS: '300' };

/** A store of `snapshot` with a table free now for the party. */
function bookable(snapshot: Map<number, Availability>): Availability {
  const found = [...snapshot.values()].find((a) => a.free_tables > 0 && a.next_slots.length > 0);
  if (!found) throw new Error('no store bookable now among the all-day stores');
  return found;
}

describe('live availability across two instances on one PostgreSQL', () => {
  let a: App;
  let b: App;
  let db: DbHandle;
  let stores: number[];

  beforeAll(async () => {
    a = await startApp('postgres', env);
    b = await startApp('postgres', env, { databaseUrl: a.databaseUrl });
    db = await openAppDb(a);
    stores = await allDayStoreIds(db.db, 20);
    expect(stores.length).toBeGreaterThanOrEqual(6);
  });

  afterAll(async () => {
    await db?.close();
    await b?.stop();
    await a?.stop();
  });

  it('a booking committed elsewhere reaches a stream served by instance B', async () => {
    const watched = stores.slice(0, 3);
    const streamB = await SseStream.open(b, `/api/availability/stream?stores=${watched.join(',')}&party=2`);
    const streamA = await SseStream.open(a, `/api/availability/stream?stores=${watched.join(',')}&party=2`);
    try {
      const before = bookable(await streamB.snapshot(watched));
      await streamA.snapshot(watched);
      // Not through instance A's booking API yet (it is being built): a committed booking and its
      // published change from a third connection, which reaches B only through LISTEN/NOTIFY.
      await bookDirectly(db.db, before.store_id, 2, before.next_slots[0]!);
      const after = await streamB.nth(before.store_id, 2);
      expect(after).not.toEqual(before);
      if (after.next_slots[0] === before.next_slots[0]) expect(after.free_tables).toBe(before.free_tables - 1);
      // Instance A hears the same change, once.
      expect(await streamA.nth(before.store_id, 2)).toEqual(after);
      // The other stores did not change, so nothing more was sent about them.
      for (const id of watched.filter((s) => s !== before.store_id)) expect(streamB.availability().filter((x) => x.store_id === id)).toHaveLength(1);
    } finally {
      streamA.close();
      streamB.close();
    }
  });

  it('a reconnect with Last-Event-ID gets what it missed, not the whole snapshot', async () => {
    const watched = stores.slice(3, 9);
    const first = await SseStream.open(b, `/api/availability/stream?stores=${watched.join(',')}&party=2`);
    const snapshot = await first.snapshot(watched);
    const lastId = first.lastEventId!;
    expect(lastId).toMatch(/^\d+-\d+$/);
    first.close();

    const target = bookable(snapshot);
    await bookDirectly(db.db, target.store_id, 2, target.next_slots[0]!);

    const again = await SseStream.open(b, `/api/availability/stream?stores=${watched.join(',')}&party=2`, { 'last-event-id': lastId });
    try {
      const missed = await again.nth(target.store_id, 1);
      expect(missed).not.toEqual(target);
      // A change to another store after the resume: anything the resume sent arrives before it.
      const sentinel = [...snapshot.values()].find((x) => x.store_id !== target.store_id && x.free_tables > 0)!;
      await bookDirectly(db.db, sentinel.store_id, 2, sentinel.next_slots[0]!);
      await again.nth(sentinel.store_id, 1);
      const epochChanged = again.lastEventId!.split('-')[1] !== lastId.split('-')[1];
      // A passing 15-minute mark moves every store's slots: then a full snapshot is right.
      if (!epochChanged) expect(again.availability().map((x) => x.store_id)).toEqual([target.store_id, sentinel.store_id]);
    } finally {
      again.close();
    }
  });
});

forEachApp(
  'live availability stream',
  (app) => {
    let stores: number[] = [];
    beforeAll(async () => {
      stores = app().engine === 'postgres' ? await withDb(app(), (db) => allDayStoreIds(db.db, 5)) : await allDayStoreIdsOfTemplate(5);
    });

    it('is an event stream: retry, ids, then one availability event per store for the party', async () => {
      const s = await SseStream.open(app(), `/api/availability/stream?stores=${stores.join(',')}&party=4`);
      try {
        expect(s.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(s.response.headers.get('cache-control')).toContain('no-store');
        expect(s.response.headers.get('x-accel-buffering')).toBe('no');
        const snap = await s.snapshot(stores);
        expect(s.retry).toBe(3000);
        expect(s.events.every((e) => e.event === 'availability' && /^\d+-\d+$/.test(e.id ?? ''))).toBe(true);
        for (const id of stores) {
          const a = snap.get(id)!;
          expect(Object.keys(a).sort()).toEqual(['free_tables', 'next_slots', 'rev', 'store_id']);
          expect(Number.isInteger(a.rev)).toBe(true);
          expect(a.free_tables).toBeGreaterThanOrEqual(0);
          for (const t of a.next_slots) {
            expect(t).toMatch(ISO_JST);
            expect(new Date(t).getTime()).toBeGreaterThanOrEqual(Date.now() - 60_000);
            expect(new Date(t).getTime()).toBeLessThanOrEqual(Date.now() + 61 * 60_000);
          }
          expect(a.free_tables > 0).toBe(a.next_slots.length > 0);
        }
      } finally {
        s.close();
      }
    });

    it('refuses a bad query with the 400 envelope naming the field', async () => {
      const many = Array.from({ length: 51 }, (_, i) => i + 1).join(',');
      for (const [query, field] of [
        ['', 'stores'],
        ['stores=1,abc', 'stores'],
        ['stores=1,,2', 'stores'],
        ['stores=0', 'stores'],
        [`stores=${many}`, 'stores'],
        ['stores=1&party=0', 'party'],
        ['stores=1&party=21', 'party'],
        ['stores=1&party=two', 'party'],
      ] as const) {
        const res = await app().fetch(`/api/availability/stream?${query}`, { headers: { 'accept-language': 'ja' } });
        expect(res.status, query).toBe(400);
        const body = await res.json();
        expect(body.error.code).toBe('validation_failed');
        expect(Object.keys(body.error.fields), query).toEqual([field]);
      }
      const res = await app().fetch(`/api/availability/stream?stores=${many}`, { headers: { 'accept-language': 'ja' } });
      expect((await res.json()).error.fields.stores).toBe('店舗は50件までにしてください');
    });

    it('sends heartbeat comments while nothing changes', async () => {
      const s = await SseStream.open(app(), `/api/availability/stream?stores=${stores[0]}`);
      try {
        await s.until(() => s.comments.filter((c) => c === 'heartbeat').length >= 2, 'two heartbeats');
      } finally {
        s.close();
      }
    });

    it('frees the stream on the server when the client goes away', async () => {
      const s = await SseStream.open(app(), `/api/availability/stream?stores=${stores.join(',')}`, { 'x-request-id': `gone-${app().engine}` });
      await s.snapshot(stores);
      expect(app().output()).toMatch(new RegExp(`"msg":"stream_opened","requestId":"gone-${app().engine}"`));
      s.close();
      await eventually(
        () => new RegExp(`"msg":"stream_closed","requestId":"gone-${app().engine}"[^\\n]*"open":0`).test(app().output()) || undefined,
        'the server to close the stream',
      );
    });
  },
  env,
);

async function withDb<T>(app: App, f: (db: DbHandle) => Promise<T>): Promise<T> {
  const db = await openAppDb(app);
  try {
    return await f(db);
  } finally {
    await db.close();
  }
}

describe('graceful shutdown of npm start', () => {
  it('on SIGTERM ends the streams, exits 0 and releases the DATA_DIR lock', async () => {
    const app = await startApp('pglite', env);
    try {
      const stores = await allDayStoreIdsOfTemplate(2);
      const s = await SseStream.open(app, `/api/availability/stream?stores=${stores.join(',')}`);
      await s.snapshot(stores);
      expect(fs.existsSync(path.join(app.dataDir!, 'sugu.lock'))).toBe(true);
      const exited = new Promise<number | null>((resolve) => app.process.once('exit', (code) => resolve(code)));
      app.process.kill('SIGTERM');
      await s.closedByServer();
      expect(await exited).toBe(0);
      expect(app.output()).toContain('"msg":"stopped","drained":true');
      expect(fs.existsSync(path.join(app.dataDir!, 'sugu.lock'))).toBe(false);
    } finally {
      await app.stop();
    }
    // Starting a server is part of this test: give it the time a busy machine needs.
  }, 120_000);
});
