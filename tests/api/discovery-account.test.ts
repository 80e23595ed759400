/** Favourites and viewing history over HTTP on both engines, for signed-up users. */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { signUp } from '../helpers/auth';
import { decodeFlash } from '../../src/lib/flash';

type Item = { id: number; bookable_now: boolean; next_slots: unknown[]; free_tables: number };

forEachApp(
  'favourites and history API',
  (app) => {
    it('adds, lists (newest first) and removes favourites, idempotently, per user', async () => {
      const me = await signUp(app());
      const other = await signUp(app());
      const as = (who: typeof me, path: string, method = 'GET') => app().fetch(path, { method, cookie: who.jar.header() });
      expect((await as(me, '/api/favourites/3', 'PUT')).status).toBe(204);
      expect((await as(me, '/api/favourites/3', 'PUT')).status).toBe(204);
      expect((await as(me, '/api/favourites/7', 'PUT')).status).toBe(204);
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

    it('keeps favourites with the heart’s plain form: back to the page it was on, with a message; a guest signs in first', async () => {
      const me = await signUp(app());
      const base = app().url;
      const post = (who: typeof me | null, path: string, favourite: string, referer = `${base}/areas/1?party=4`) =>
        app().fetch(path, {
          method: 'POST',
          cookie: who?.jar.header(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', referer, 'accept-language': 'ja' },
          body: `favourite=${favourite}`,
        });
      const flash = (res: Response) => decodeFlash(res.headers.get('set-cookie')?.match(/flash=([^;]+)/)?.[1])?.message;
      const ids = async () => ((await (await app().fetch('/api/favourites', { cookie: me.jar.header() })).json()) as { items: Item[] }).items.map((i) => i.id);

      const added = await post(me, '/favourites/5', '1');
      expect([added.status, added.headers.get('location')]).toEqual([303, '/areas/1?party=4']);
      expect(flash(added)).toBe('お気に入りに追加しました');
      expect(await ids()).toEqual([5]);
      // The heart as the server draws it now: pressed, and its form removes.
      const page = await (await app().fetch('/store/5', { cookie: me.jar.header() })).text();
      expect(page).toMatch(/<form method="post" action="\/favourites\/5"[^>]*>\s*<input type="hidden" name="favourite" value="0"/);
      const removed = await post(me, '/favourites/5', '0');
      expect(removed.status).toBe(303);
      expect(await ids()).toEqual([]);

      // Unknown stores and bad values change nothing and say so; a foreign Referer is not followed.
      for (const [path, value] of [
        ['/favourites/999999', '1'],
        ['/favourites/abc', '1'],
        ['/favourites/5', 'yes'],
      ] as const) {
        const res = await post(me, path, value, 'https://evil.example/x');
        expect([path, res.status, res.headers.get('location')]).toEqual([path, 303, '/home']);
        expect(flash(res)).toBe('お気に入りを更新できませんでした');
      }
      expect(await ids()).toEqual([]);

      // A guest is sent to sign in, and back to the page afterwards.
      const guest = await post(null, '/favourites/5', '1');
      expect([guest.status, guest.headers.get('location')]).toEqual([303, `/auth/signin?next=${encodeURIComponent('/areas/1?party=4')}`]);
      // Another site cannot post it.
      const forged = await app().fetch('/favourites/5', {
        method: 'POST',
        cookie: me.jar.header(),
        headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'favourite=1',
      });
      expect(forged.status).toBe(403);
      expect(await ids()).toEqual([]);
    });
  },
  {},
  { shared: true },
);
