// Creates, migrates and seeds the embedded database in DATA_DIR, then ends. `npm start` runs it
// while the app is being built on a fresh checkout (scripts/start.mjs): the build and the database
// then share the two cores instead of waiting for each other. The server, started afterwards,
// finds the database ready and only opens it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { root } from './build-if-needed.mjs';

// The database code is TypeScript with extensionless imports, which Node cannot load by itself.
register();
const src = (p) => pathToFileURL(path.join(root, 'src/server/db', p)).href;
const { openDb } = await import(src('client.ts'));
const { runMigrations } = await import(src('migrate.ts'));
const { seedDemo } = await import(src('seed.ts'));

const handle = await openDb({ dataDir: process.env.DATA_DIR || './data' });
try {
  await runMigrations(handle);
  await seedDemo(handle.db);
} finally {
  await handle.close();
}
