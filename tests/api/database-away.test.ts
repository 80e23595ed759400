/**
 * Degrade, don't fail, when PostgreSQL is away (issue 26 §6): two instances on one database, on a
 * PostgreSQL cluster of this file's own (stopping the shared one would break the files running
 * beside it). With the database stopped, pages are served from memory with the notice that booking
 * is paused, a booking answers 503 with Retry-After within two seconds, and /readyz says not ready;
 * once it is back both instances answer normally without a restart (a keyword search is matched in memory meanwhile), and a booking made through one
 * reaches the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, until, type App } from '../helpers/app';
import { createDatabase, startPostgres, type PgCluster } from '../helpers/postgres';
import { DEMO_USER } from '../../src/server/db/seed-data';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays } from '../../src/lib/datetime';

type Slot = { start: string; free_tables: number };

describe('database away [postgres]', () => {
  let cluster: PgCluster;
  let a: App;
  let b: App;
  let cookie: string;
  let storeId: number;
  let date: string;

  const slotsOn = async (app: App) => {
    const res = await app.fetch(`/api/stores/${storeId}/availability?party=2&date=${date}`);
    if (res.status !== 200)
      console.log(
        app === a ? 'A' : 'B',
        app
          .output()
          .split('\n')
          .filter((l) => !l.includes('"msg":"request"'))
          .slice(-40)
          .join('\n'),
      );
    expect(res.status).toBe(200);
    return ((await res.json()) as { slots: Slot[] }).slots;
  };

  beforeAll(async () => {
    cluster = await startPostgres();
    const databaseUrl = await createDatabase(cluster.url, 'away');
    a = await startApp('postgres', {}, { databaseUrl });
    b = await startApp('postgres', {}, { databaseUrl });
    const login = await a.fetch('/api/login', { method: 'POST', json: { email: DEMO_USER.email, password: DEMO_USER.password } });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    // A store with free starts tomorrow, for two.
    const areas = (await (await a.fetch('/api/stores?per_page=50')).json()) as { items: { id: number }[] };
    date = addTokyoDays(businessDate(new Date()), 1);
    for (const s of areas.items) {
      storeId = s.id;
      if ((await slotsOn(a)).filter((x) => x.free_tables > 1).length > 1) break;
    }
  }, 180_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await cluster?.stop();
  });

  it('serves pages from memory with a notice, answers writes 503 at once, is not ready, and recovers by itself', async () => {
    // Both instances have their index and the store's details in memory.
    for (const app of [a, b]) {
      expect((await app.fetch('/home')).status).toBe(200);
      expect((await app.fetch(`/store/${storeId}`)).status).toBe(200);
    }
    const [first, second] = (await slotsOn(b)).filter((x) => x.free_tables > 1);
    expect(second).toBeDefined();
    const storeName = ((await (await a.fetch(`/api/stores/${storeId}`)).json()) as { name: string }).name;
    const byKeyword = async (app: App) => {
      const res = await app.fetch(`/api/stores?per_page=50&name=${encodeURIComponent(storeName)}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: { id: number }[] }).items.map((s) => s.id);
    };
    expect(await byKeyword(a)).toContain(storeId);

    cluster.pause();
    for (const app of [a, b]) await until(async () => (await app.fetch('/readyz')).status === 503, 'readyz 503 while the database is away');

    for (const app of [a, b]) {
      for (const who of [undefined, cookie]) {
        const home = await app.fetch('/home', { cookie: who, headers: { 'accept-language': 'ja' } });
        const html = await home.text();
        expect([home.status, who ? 'signed in' : 'anonymous']).toEqual([200, who ? 'signed in' : 'anonymous']);
        expect(html).toContain('data-booking-paused');
        expect(html).toContain('予約の受付を一時停止しています');
        // The listing itself, from the index: store cards with their bookable starts.
        expect(html).toMatch(/href="\/store\/\d+/);
      }
      // A keyword search too, matched against the stores the index holds.
      const searched = await app.fetch(`/home?name=${encodeURIComponent(storeName)}`, { headers: { 'accept-language': 'ja' } });
      expect(searched.status).toBe(200);
      const found = await searched.text();
      expect(found).toContain('data-booking-paused');
      expect(found).toContain(`href="/store/${storeId}`);
      expect(await byKeyword(app)).toContain(storeId);
      const none = await app.fetch('/api/stores?name=%E5%AD%98%E5%9C%A8%E3%81%97%E3%81%AA%E3%81%84%E5%BA%97%E5%90%8Dzzqx');
      expect(none.status).toBe(200);
      expect(((await none.json()) as { items: unknown[] }).items).toHaveLength(0);
      const store = await app.fetch(`/store/${storeId}`, { headers: { 'accept-language': 'ja' } });
      expect(store.status).toBe(200);
      expect(await store.text()).toContain('data-booking-paused');
    }

    const started = Date.now();
    const refused = await a.fetch('/api/bookings', {
      method: 'POST',
      cookie,
      headers: { 'accept-language': 'ja' },
      json: { store_id: storeId, start: first!.start, party_size: 2 },
    });
    const elapsed = Date.now() - started;
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('database_away');
    expect(error.message).toContain('一時停止');
    expect(elapsed).toBeLessThan(2000);

    cluster.resume();
    for (const app of [a, b]) await until(async () => (await app.fetch('/readyz')).status === 200, 'readyz 200 once the database is back', 2400);

    const booked = await a.fetch('/api/bookings', { method: 'POST', cookie, json: { store_id: storeId, start: second!.start, party_size: 2 } });
    expect(booked.status).toBe(201);
    // Instance B hears of it (its index caught up with the feed back), and answers normally.
    await until(
      async () => (await slotsOn(b)).find((x) => x.start === second!.start)?.free_tables === second!.free_tables - 1,
      'the booking made on A in B’s availability',
    );
    for (const app of [a, b]) {
      const home = await app.fetch('/home', { cookie });
      if (home.status !== 200) console.log(app === a ? 'A' : 'B', app.output().slice(-6000));
      expect(home.status).toBe(200);
      expect(await home.text()).not.toContain('data-booking-paused');
    }
  }, 240_000);
});
