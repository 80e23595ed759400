// Serves the built app for browser tests on a fresh embedded database, as `npm start` serves it.
import fs from 'node:fs';

if (process.env.SUGU_FRESH_DATA === '1' && process.env.DATA_DIR) fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
await import('../../scripts/start.mjs');
