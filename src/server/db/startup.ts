/**
 * The app's database: opened once per process, migrated and (when empty) seeded before the first
 * query, and closed when the app stops (src/server/app.ts).
 */
import { openDb } from './client';
import type { Db, DbHandle, OpenDbOptions } from './types';
import { runMigrations, withStartupLock } from './migrate';
import { config } from '../config';
import { reloadSafe } from '../reloadSafe';

/** Opens, migrates and (when `seed` is true and the database is empty) seeds. */
export async function openAndPrepare(opts: OpenDbOptions & { seed?: boolean; now?: Date }): Promise<DbHandle> {
  const handle = await openDb(opts);
  let created = false;
  try {
    await withStartupLock(handle, async () => {
      await runMigrations(handle);
      if (opts.seed) {
        const { seedDemo } = await import('./seed');
        created = (await seedDemo(handle.db, { now: opts.now })).seeded;
      }
    });
    // PGlite's WASM heap never shrinks: creating the database (initdb, migrations, the seed's bulk
    // inserts) leaves its worker holding a few hundred MB that serving never uses again. A new worker
    // on the files just written starts from its small initial heap (measured in bench/memory.mjs).
    if (created && handle.engine === 'pglite') {
      await handle.close();
      return await openDb(opts);
    }
    return handle;
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

// Kept across a module reload (npm run dev) so that DATA_DIR is not opened a second time.
const state = reloadSafe('db', (): { current?: Promise<DbHandle>; db?: Db } => ({}));

const workerExitListeners = new Set<(error: Error) => void>();

/** Hears the process-wide database's PGlite worker ending unexpectedly. */
export function onWorkerExit(listener: (error: Error) => void): void {
  workerExitListeners.add(listener);
}

/**
 * The process-wide handle (src/server/app.ts opens it at start): DATABASE_URL, else DATA_DIR
 * (default ./data); migrated and seeded. Opened again by the next call after a failed open.
 */
export function getDbHandle(): Promise<DbHandle> {
  const { DATABASE_URL, DATA_DIR } = config();
  state.current ??= openAndPrepare({
    databaseUrl: DATABASE_URL,
    dataDir: DATA_DIR,
    seed: true,
    // PGlite's worker ending is the database away, as PostgreSQL stopping is: health.ts listens
    // here (it imports this module for its probe, so the call goes this way round) and the app
    // degrades until the restarted worker answers.
    onWorkerExit: (error) => {
      for (const listener of workerExitListeners) listener(error);
    },
  })
    .then((handle) => {
      state.db = handle.db;
      return handle;
    })
    .catch((err) => {
      state.current = undefined;
      throw err;
    });
  return state.current;
}

/** True for the process-wide database (the one other instances announce their changes on). */
export const isMainDb = (db: Db): boolean => state.db === db;

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Closes the process-wide handle (releasing the DATA_DIR lock); the last step of an app's stop (src/server/app.ts). */
export async function closeDb(): Promise<void> {
  const p = state.current;
  state.current = undefined;
  if (!p) return;
  const handle = await p.catch(() => undefined);
  await handle?.close();
}
