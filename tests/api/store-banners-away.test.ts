/**
 * The diner home's banners while PostgreSQL is away (on a cluster of this file's own, as
 * tests/api/database-away.test.ts does): /home still answers, with the day's banners it last read,
 * and once the database is back a banner scheduled then appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, until, type App } from '../helpers/app';
import { createDatabase, startPostgres, type PgCluster } from '../helpers/postgres';
import { DEMO_STAFF } from '../../src/server/db/seed-data';
import { businessDate } from '../../src/server/availability';

describe('home banners with the database away [postgres]', () => {
  let cluster: PgCluster;
  let app: App;
  let auth: Record<string, string>;

  beforeAll(async () => {
    cluster = await startPostgres();
    app = await startApp('postgres', {}, { databaseUrl: await createDatabase(cluster.url, 'banners_away') });
    const login = await app.fetch('/api/login', { method: 'POST', json: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
    expect(login.status).toBe(200);
    auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await cluster?.stop();
  });

  const home = async () => {
    const res = await app.fetch('/home', { headers: { 'accept-language': 'ja' } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const schedule = (title: string) => {
    const today = businessDate(new Date());
    return app.fetch('/api/store/banners', { method: 'POST', headers: auth, json: { title, starts_on: today, ends_on: today } });
  };

  it('keeps showing the day’s banners from memory, and reads them again once the database is back', async () => {
    const made = await schedule('停止中も表示されるお知らせ');
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    expect(await home()).toContain('停止中も表示されるお知らせ');

    cluster.pause();
    await until(async () => (await app.fetch('/readyz')).status === 503, 'readyz 503 while the database is away');
    const away = await home();
    expect(away).toContain('data-booking-paused');
    expect(away).toContain('停止中も表示されるお知らせ');
    // A change is refused meanwhile, as every write is.
    expect((await app.fetch(`/api/store/banners/${id}`, { method: 'PATCH', headers: auth, json: { title: '書けないお知らせ' } })).status).toBe(503);

    cluster.resume();
    await until(async () => (await app.fetch('/readyz')).status === 200, 'readyz 200 once the database is back', 2400);
    expect((await app.fetch(`/api/store/banners/${id}`, { method: 'PATCH', headers: auth, json: { title: '復旧後のお知らせ' } })).status).toBe(200);
    const back = await home();
    expect(back).toContain('復旧後のお知らせ');
    expect(back).not.toContain('停止中も表示されるお知らせ');
  }, 120_000);
});
