// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './src/server/http/precompress.ts';
import { islandStylesInStylesheet } from './src/server/http/islandStyles.ts';
import { template } from './src/template/integration.ts';
import { appLifecycle } from './src/server/appLifecycle.ts';

export default defineConfig({
  output: 'server',
  // Shiki's inline styles cannot pass the CSP, and the Markdown pages carry no code.
  markdown: { syntaxHighlight: false },
  adapter: node({ mode: 'standalone' }),
  // precompress: .br and .gz copies of the static files, sent by scripts/start.mjs (src/server/http/static.ts).
  // template: the demo template's pages, injected from src/template/pages at the spec's URLs.
  // appLifecycle: the app (its database and background jobs) starts with the server, not its first request.
  integrations: [react(), template(), precompress(), appLifecycle()],
  server: { port: Number(process.env.PORT ?? 4321), host: process.env.HOST ?? 'localhost' },
  security: {
    // Cross-site form posts are refused by src/middleware.ts (src/server/http/origin.ts) with the
    // same rule, answering the API's JSON envelope and knowing PUBLIC_ORIGIN behind a TLS proxy.
    checkOrigin: false,
    // Astro hashes every script and style it emits into a <meta> policy; the middleware adds the
    // directives a <meta> policy cannot carry (frame-ancestors) and the ones known only at run time
    // (map tiles, analytics).
    csp: {
      algorithm: 'SHA-256',
      styleDirective: { resources: ["'self'", "'unsafe-inline'", 'https://cdn.jsdelivr.net', 'https://unpkg.com'] },
    },
  },
  vite: {
    // islandStylesInStylesheet: the islands' display rule comes from the stylesheet, not a <style> in the body.
    plugins: [tailwindcss(), islandStylesInStylesheet()],
    ssr: { external: ['@electric-sql/pglite', '@electric-sql/pglite-socket', '@node-rs/argon2', 'postgres', 'nodemailer'] },
  },
});
