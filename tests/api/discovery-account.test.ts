/** Favourites and viewing history over HTTP on both engines, for signed-up users. */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { signUp } from '../helpers/auth';

type Item = { id: number; bookable_now: boolean; next_slots: unknown[]; free_tables: number };

forEachApp('favourites and history API', (app) => {
  it('adds, lists (newest first) and removes favourites, idempotently, per user', async () => {
    const me = await signUp(app());
    const other = await signUp(app());
    const as = (who: typeof me, path: string, method = 'GET') => app().fetch(path, { method, cookie: who.jar.header() });
    expect((await as(me, '/api/favourites/3', 'PUT')).status).toBe(200);
    expect((await as(me, '/api/favourites/3', 'PUT')).status).toBe(200);
    expect((await as(me, '/api/favourites/7', 'PUT')).status).toBe(200);
    const list = (await (await as(me, '/api/favourites')).json()) as { items: Item[] };
    expect(list.items.map((i) => i.id)).toEqual([7, 3]);
    for (const i of list.items) expect(typeof i.bookable_now).toBe('boolean');
    // Someone else sees none of it.
    expect(((await (await as(other, '/api/favourites')).json()) as { items: Item[] }).items).toEqual([]);
    expect((await as(me, '/api/favourites/3', 'DELETE')).status).toBe(204);
    expect((await as(me, '/api/favourites/3', 'DELETE')).status).toBe(204);
    expect(((await (await as(me, '/api/favourites')).json()) as { items: Item[] }).items.map((i) => i.id)).toEqual([7]);
    // Bearer works as well as the cookie.
    const bearer = await app().fetch('/api/favourites', { headers: { authorization: `Bearer ${me.token}` } });
    expect(((await bearer.json()) as { items: Item[] }).items.map((i) => i.id)).toEqual([7]);
  });

  it('answers 404 for unknown or malformed store ids and 400 for a bad party', async () => {
    const me = await signUp(app());
    for (const [method, path] of [
      ['PUT', '/api/favourites/999999'],
      ['PUT', '/api/favourites/abc'],
      ['DELETE', '/api/favourites/0'],
      ['DELETE', '/api/favourites/-1'],
      ['DELETE', '/api/history/abc'],
    ] as const) {
      const res = await app().fetch(path, { method, cookie: me.jar.header() });
      expect([path, res.status]).toEqual([path, 404]);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    for (const path of ['/api/favourites?party=0', '/api/history?party=999']) {
      const res = await app().fetch(path, { cookie: me.jar.header() });
      expect([path, res.status]).toEqual([path, 400]);
    }
  });

  it('records each signed-in view of a store page, newest first, refreshing repeats', async () => {
    const me = await signUp(app());
    const view = (id: number) => app().fetch(`/store/${id}`, { cookie: me.jar.header() });
    for (const id of [5, 9, 12, 9]) expect((await view(id)).status).toBe(200);
    const history = (await (await app().fetch('/api/history', { cookie: me.jar.header() })).json()) as { items: Array<Item & { viewed_at: string }> };
    expect(history.items.map((i) => i.id)).toEqual([9, 12, 5]);
    expect(Date.parse(history.items[0]!.viewed_at)).toBeGreaterThanOrEqual(Date.parse(history.items[1]!.viewed_at));
    // A guest's view records nothing for anyone; unknown stores record nothing.
    await app().fetch('/store/20');
    await app().fetch('/store/999999', { cookie: me.jar.header() });
    expect((await (await app().fetch('/api/history', { cookie: me.jar.header() })).json()).items).toHaveLength(3);
    expect((await app().fetch('/api/history/12', { method: 'DELETE', cookie: me.jar.header() })).status).toBe(204);
    expect(((await (await app().fetch('/api/history', { cookie: me.jar.header() })).json()) as { items: Item[] }).items.map((i) => i.id)).toEqual([9, 5]);
  });

  it('keeps at most 50 entries per user', async () => {
    const me = await signUp(app());
    for (let id = 1; id <= 53; id++) await app().fetch(`/store/${id}`, { cookie: me.jar.header() });
    const items = ((await (await app().fetch('/api/history', { cookie: me.jar.header() })).json()) as { items: Item[] }).items;
    expect(items).toHaveLength(50);
    expect(items[0]!.id).toBe(53);
    expect(items.some((i) => i.id <= 3)).toBe(false);
  }, 60_000);

  it('shows favourites and history pages to their owner', async () => {
    const me = await signUp(app());
    await app().fetch('/api/favourites/4', { method: 'PUT', cookie: me.jar.header() });
    await app().fetch('/store/6', { cookie: me.jar.header() });
    const fav = await app().fetch('/favourite', { cookie: me.jar.header(), headers: { 'accept-language': 'ja' } });
    expect(fav.status).toBe(200);
    expect(await fav.text()).toContain('data-store-id="4"');
    const hist = await app().fetch('/viewed-list', { cookie: me.jar.header(), headers: { 'accept-language': 'ja' } });
    expect(hist.status).toBe(200);
    expect(await hist.text()).toContain('data-history="6"');
    expect((await app().fetch('/favourite')).status).toBe(302);
  });
});
