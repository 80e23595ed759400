// Serves the built app for browser tests on a fresh embedded database.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, root } from '../../scripts/build-if-needed.mjs';

buildIfNeeded();
if (process.env.SUGU_FRESH_DATA === '1' && process.env.DATA_DIR) fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
await import(pathToFileURL(path.join(root, 'dist/server/entry.mjs')).href);
