/**
 * The demo template's pages are injected by its integration (src/template/integration.ts) at the
 * URLs the spec lists for the template layer, and none of them takes a URL of the product's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { templateRoutes, TEMPLATE_PAGES_DIR } from '../../src/template/integration';

/** The product's page and endpoint URLs, read from src/pages the way Astro's file router reads them. */
function productPatterns(dir = path.resolve('src/pages'), base = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = `${base}/${e.name}`;
    if (e.isDirectory()) return productPatterns(path.join(dir, e.name), rel);
    return /\.(astro|ts)$/.test(e.name) ? [rel.replace(/\.(astro|ts)$/, '').replace(/\/index$/, '') || '/'] : [];
  });
}

describe('template routes', () => {
  it('are the spec’s template URLs, dynamic segments included', () => {
    expect(templateRoutes().map((r) => r.pattern)).toEqual([
      '/apps/board',
      '/apps/chat',
      '/apps/chat/channel/[channel]',
      '/apps/email',
      '/apps/email/[folder]',
      '/apps/todo',
      '/auth/verify-email',
      '/blank',
      '/dashboard/analytics',
      '/ecommerce/cart',
      '/ecommerce/list',
      '/ecommerce/orders',
      '/ecommerce/product-details',
      '/ui/[group]/[page]',
      '/ui/colors',
      '/ui/grids',
      '/users/edit',
      '/users/list',
    ]);
  });

  it('point at pages inside src/template/pages', () => {
    for (const { entrypoint } of templateRoutes()) {
      expect(entrypoint.startsWith(TEMPLATE_PAGES_DIR)).toBe(true);
      expect(fs.statSync(entrypoint).isFile()).toBe(true);
    }
  });

  it('never take a URL the product serves (/ecommerce stays the legal notice)', () => {
    const product = productPatterns();
    expect(product).toContain('/ecommerce');
    expect(product).toContain('/auth/signin');
    expect(templateRoutes().filter((r) => product.includes(r.pattern))).toEqual([]);
  });

  describe('are derived from file paths as Astro’s file router does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'template-pages-'));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    for (const file of ['index.astro', 'a/index.astro', 'a/[id].astro', 'a/b/c.astro', '_parts/x.astro', 'a/_y.astro', 'a/notes.md', 'a/data.ts']) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), '');
    }

    it('index pages take their folder’s URL; `_` files, non-pages and endpoints are left out', () => {
      expect(templateRoutes(dir).map((r) => [r.pattern, path.relative(dir, r.entrypoint).split(path.sep).join('/')])).toEqual([
        ['/', 'index.astro'],
        ['/a', 'a/index.astro'],
        ['/a/[id]', 'a/[id].astro'],
        ['/a/b/c', 'a/b/c.astro'],
      ]);
    });
  });
});
