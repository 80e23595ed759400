/**
 * The demo template (the spec's template layer) as an Astro integration: its pages live in
 * ./pages, not in src/pages, so src/pages holds only the product, and each page is injected at
 * the URL the spec names, derived from its file path exactly as Astro's file router would
 * (`apps/email/[folder].astro` → `/apps/email/[folder]`, `index.astro` → its folder).
 *
 * Only `.astro` pages are routed: the template makes no calls to a server (spec section 7), so it
 * has no endpoints. Files and folders starting with `_` are skipped, as in src/pages. A page's own
 * `export const prerender` is still read by Astro for an injected route, so none is passed here.
 * The list is read when the configuration loads: a page added while `npm run dev` runs appears
 * after the dev server restarts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export const TEMPLATE_PAGES_DIR = fileURLToPath(new URL('./pages/', import.meta.url));

export interface TemplateRoute {
  /** The URL pattern, with Astro's `[param]` segments. */
  pattern: string;
  /** Absolute path of the page. */
  entrypoint: string;
}

function pageFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('_')) return [];
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return pageFiles(full);
    return e.isFile() && e.name.endsWith('.astro') ? [full] : [];
  });
}

/** Every template page and its URL, sorted by URL so the injection order never depends on the disk. */
export function templateRoutes(dir = TEMPLATE_PAGES_DIR): TemplateRoute[] {
  return pageFiles(dir)
    .map((entrypoint) => {
      const route = path
        .relative(dir, entrypoint)
        .split(path.sep)
        .join('/')
        .replace(/\.astro$/, '');
      const pattern = `/${route.replace(/(^|\/)index$/, '')}`;
      return { pattern: pattern.length > 1 ? pattern.replace(/\/$/, '') : pattern, entrypoint };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** Used once, in astro.config.mjs: nothing else outside src/template imports the template. */
export function template(): AstroIntegration {
  return {
    name: 'sugu:template',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        for (const route of templateRoutes()) injectRoute(route);
      },
    },
  };
}
