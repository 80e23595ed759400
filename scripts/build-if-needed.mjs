// Builds the server when dist/ is missing or older than any source it is built from.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist/server/entry.mjs');
const inputs = ['src', 'public', 'db', 'astro.config.mjs', 'tailwind.config.cjs', 'package.json', 'tsconfig.json'];

function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

export function needsBuild() {
  if (!fs.existsSync(entry)) return true;
  const built = fs.statSync(entry).mtimeMs;
  return inputs.some((i) => newestMtime(path.join(root, i)) > built);
}

export function buildIfNeeded({ force = false } = {}) {
  if (!force && !needsBuild()) return;
  console.log('Building Sugu (astro build)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would build React's dev JSX runtime (jsxDEV) into a server
    // that then runs in production and fails in every island.
    env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
  // Touch the entry so that a build with no changed output still counts as fresh.
  const now = new Date();
  fs.utimesSync(entry, now, now);
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded({ force: process.argv.includes('--force') });
