/** Where the project lives on disk: the folder holding db/migrations. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '../config';

const JOURNAL = path.join('db', 'migrations', 'meta', '_journal.json');

/** Walks up from `start` to the first folder where `rel` exists. */
export function findUp(start: string, rel: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, rel))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function moduleDir(): string | null {
  try {
    return path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
}

/**
 * The project root: the folder holding db/migrations. Found from this module's location
 * (src/server/db in dev and tests, dist/server/chunks in the built server), then from the
 * working directory. `SUGU_ROOT` overrides both.
 */
export function findProjectRoot(): string {
  const fromEnv = config().SUGU_ROOT;
  if (fromEnv) return path.resolve(fromEnv);
  for (const start of [moduleDir(), process.cwd()]) {
    if (!start) continue;
    const root = findUp(start, JOURNAL);
    if (root) return root;
  }
  throw new Error(`Cannot find ${JOURNAL} above ${moduleDir() ?? '?'} or ${process.cwd()}. Run Sugu from the project folder, or set SUGU_ROOT to it.`);
}
