import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';

forEachApp(
  'app shell',
  (app) => {
    it('is ready with a migrated, seeded database', async () => {
      const res = await app().fetch('/readyz');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready' });
    });

    it('redirects / to /home', async () => {
      const res = await app().fetch('/');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/home');
    });

    it('sends guests from guarded pages to sign-in, keeping the destination', async () => {
      const res = await app().fetch('/account-info');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/auth/signin?next=%2Faccount-info');
    });

    it('sends store-manager paths to the store host with path and query', async () => {
      const res = await app().fetch('/edit-store/12?tab=seats');
      expect(res.status).toBe(302);
      // STORE_HOST unset: the store host is store.localhost on the server's own port.
      expect(res.headers.get('location')).toBe(`http://store.localhost:${new URL(app().url).port}/edit-store/12?tab=seats`);
      expect((await app().fetch('/edit-store/abc')).status).toBe(404);
    });

    it('answers unknown pages with the not-found screen and 404', async () => {
      const res = await app().fetch('/no/such/page', { headers: { 'accept-language': 'en' } });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Page Not Found');
    });

    it('answers unknown API paths with the JSON envelope', async () => {
      const res = await app().fetch('/api/nothing-here', { headers: { 'accept-language': 'ja' } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'not_found', message: '見つかりませんでした' } });
    });

    it('renders the error pages and Markdown content pages', async () => {
      for (const [path, status, text] of [
        ['/error/not-found', 404, 'ページが見つかりません'],
        ['/error/unexpected', 500, 'エラーが発生しました'],
        ['/error', 200, 'エラー'],
        ['/term', 200, '利用規約'],
        ['/privacy', 200, '個人情報の取扱い'],
        ['/ecommerce', 200, '特定商取引法に基づく表記'],
        ['/info-contracted-store', 200, '加盟店情報'],
        ['/utility/maintenance', 503, 'メンテナンス中'],
        ['/utility/coming-soon', 200, '近日公開'],
        ['/utility/help', 200, 'ヘルプ'],
      ] as const) {
        const res = await app().fetch(path, { headers: { 'accept-language': 'ja-JP' } });
        expect([path, res.status]).toEqual([path, status]);
        expect(await res.text()).toContain(text);
      }
    });

    it('sets security headers and a CSP on pages', async () => {
      const res = await app().fetch('/home');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'sha256-/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    });

    it('refuses a cross-origin form post', async () => {
      const res = await app().fetch('/preferences', {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'theme=dark&back=/home',
      });
      expect(res.status).toBe(403);
    });

    it('chooses the locale from the cookie, then the browser, else en', async () => {
      const lang = async (headers: Record<string, string>) =>
        (await (await app().fetch('/home', { headers })).text()).match(/<html lang="(\w+)" dir="(\w+)"/)!.slice(1);
      expect(await lang({ 'accept-language': 'ja-JP,ja;q=0.9' })).toEqual(['ja', 'ltr']);
      expect(await lang({ 'accept-language': 'it-IT' })).toEqual(['en', 'ltr']);
      expect(await lang({ 'accept-language': 'ja', cookie: 'locale=ar' })).toEqual(['ar', 'rtl']);
    });

    it('keeps a 500 free of internals', async () => {
      const res = await app().fetch('/error/unexpected');
      const html = await res.text();
      expect(html).not.toMatch(/at .*\.(m?js|ts):\d+/);
    });
  },
  {},
  { shared: true },
);

describe('configuration at start', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://localhost/sugu'],
    ['MAP_TILE_URL', 'https://tiles.example/tile.png'],
  ])('npm start stops on a bad %s and names it', (name, value) => {
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, [name]: value }, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(name);
    expect(r.stderr).toContain('Invalid configuration');
  });
});
