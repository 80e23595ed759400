// `npm start`: build when needed, check the configuration, then serve.
// The database is created, migrated and seeded by the server itself on start.
import { buildIfNeeded, root } from './build-if-needed.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
process.env.NODE_ENV ??= 'production';

const { parseConfig, ConfigError } = await import(pathToFileURL(path.join(root, 'src/server/config.ts')).href);
let settings;
try {
  settings = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

buildIfNeeded();
process.env.PORT = String(settings.PORT);
process.env.HOST = settings.HOST;
await import(pathToFileURL(path.join(root, 'dist/server/entry.mjs')).href);

// Open the database now rather than on the first request, and say when the app is ready.
const base = `http://${settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST}:${settings.PORT}`;
const started = performance.now();
for (let attempt = 0; attempt < 600; attempt++) {
  try {
    const res = await fetch(`${base}/readyz`);
    if (res.ok) {
      console.log(`Sugu is ready at ${base}/home (database ready in ${Math.round(performance.now() - started)} ms)`);
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
