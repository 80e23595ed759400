/**
 * Starts the application context (src/server/app.ts) with the server rather than with its first
 * request, as the integration `appLifecycle()` (astro.config.mjs):
 * - in the build, the server entry (dist/server/entry.mjs) also exports `startApp`, which
 *   scripts/start.mjs calls once the server listens and whose context it stops on SIGTERM/SIGINT;
 * - in `npm run dev`, the app starts in the dev server's SSR module graph (the one the pages use)
 *   as soon as it listens, and stops when it closes.
 *
 * Plain TypeScript that Node loads with the Astro config, so it imports nothing of the app.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

const APP_MODULE = fileURLToPath(new URL('./app.ts', import.meta.url));
/** The node adapter's server entry, which the build turns into dist/server/entry.mjs. */
const ADAPTER_ENTRY = /[\\/]@astrojs[\\/]node[\\/]dist[\\/]server\.js$/;

interface AppModule {
  startApp(): { close(): Promise<void> };
}
/** The dev server's SSR environment runs modules in this process (Astro's dev server requires it). */
type Runner = { import(id: string): Promise<unknown> };

export function appLifecycle(): AstroIntegration {
  return {
    name: 'sugu:app-lifecycle',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'sugu:app-entry',
                apply: 'build',
                transform(code: string, id: string) {
                  if (!ADAPTER_ENTRY.test(id)) return undefined;
                  return { code: `${code}\nexport { startApp } from ${JSON.stringify(APP_MODULE)};\n`, map: null };
                },
              },
            ],
          },
        });
      },
      'astro:server:setup': ({ server, logger }) => {
        const runner = (server.environments.ssr as { runner?: Runner } | undefined)?.runner;
        if (!runner) return;
        server.httpServer?.once('listening', () => {
          runner
            .import(APP_MODULE)
            .then((module) => {
              const app = (module as AppModule).startApp();
              server.httpServer?.once('close', () => void app.close());
            })
            .catch((error: unknown) => logger.error(`the app did not start: ${String((error as Error)?.stack ?? error)}`));
        });
      },
    },
  };
}
