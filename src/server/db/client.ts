/**
 * The connection: PostgreSQL when a URL is given, otherwise embedded PGlite. Migrations, the seed
 * and the app's one handle are in startup.ts.
 *
 * Embedded mode runs PGlite in a worker process (so WASM query work never blocks the
 * request thread) behind a Postgres wire-protocol Unix socket inside DATA_DIR; the app
 * talks to it with postgres.js exactly as it would to a real server, and restarts it
 * when it fails, as PostgreSQL's own supervisor would. DATA_DIR is held with an
 * exclusive PID lock (see lock.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { findProjectRoot } from './root';
import * as schema from './schema';
import type { Db, DbHandle, OpenDbOptions } from './types';
import { withNamedStatements } from './named';
import { log } from '../log';
import { config } from '../config';

const WORKER_FILE = 'pglite-worker.mjs';
const WORKER_REL = path.join('src', 'server', 'db', WORKER_FILE);

/**
 * Locates the PGlite worker script. It is a plain .mjs file that is never bundled:
 *  1. `SUGU_PGLITE_WORKER` (absolute path) when set;
 *  2. next to this module (source: vitest, tsx, astro dev);
 *  3. `<project root>/src/server/db/pglite-worker.mjs`, the root being found by walking
 *     up from this module (dist/server/chunks in the built server) or the working
 *     directory to the folder holding db/migrations.
 * Its bare imports (@electric-sql/*) resolve from the project's node_modules.
 */
export function findPgliteWorker(): string {
  const candidates: string[] = [];
  const given = config().SUGU_PGLITE_WORKER;
  if (given) candidates.push(path.resolve(given));
  try {
    // Built from a variable so bundlers do not try to treat it as an asset.
    candidates.push(fileURLToPath(new URL(`./${WORKER_FILE}`, import.meta.url)));
  } catch {
    /* import.meta.url not a file: URL */
  }
  try {
    candidates.push(path.join(findProjectRoot(), WORKER_REL));
  } catch {
    /* reported below */
  }
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(
    `Cannot find the PGlite worker (${WORKER_REL}); looked in: ${candidates.join(', ') || '(nowhere)'}. ` +
      'Run Sugu from the project folder, set SUGU_ROOT to it, or set SUGU_PGLITE_WORKER.',
  );
}

function socketPathFor(dataDir: string): string {
  const p = path.join(dataDir, '.s.PGSQL.5432');
  // Unix socket paths are limited to ~107 bytes.
  if (Buffer.byteLength(p) <= 100) return p;
  const h = crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `sugu-${h}.s.PGSQL`);
}

/** Seconds to wait for a connection before the request is answered without the database. */
const CONNECT_TIMEOUT_S = 2;
/**
 * Seconds between attempts to connect again after a failure: short and capped at one second
 * (the driver's own grows to 20 s), so that the database coming back is noticed at once.
 */
const reconnectDelay = (retries: number) => Math.min(0.05 * 2 ** retries, 1);

type WorkerMsg = { type: 'ready' } | { type: 'closed' } | { type: 'error'; message: string; stack?: string };

/** A restart of a worker that ended waits this long, doubling after each failed attempt up to the cap. */
const RESTART_FIRST_MS = 250;
const RESTART_MAX_MS = 4_000;

/**
 * Starts a worker process on the database in `dataDir` and waits until it serves its socket.
 * `reopen`: a restart, which must find the database there (never creates an empty one).
 */
async function startWorker(dataDir: string, socketPath: string, reopen: boolean): Promise<ChildProcess> {
  const child = fork(findPgliteWorker(), [JSON.stringify({ pgDataDir: path.join(dataDir, 'pglite'), socketPath, reopen })], {
    // The worker is plain ESM: it needs none of the parent's loader flags, and
    // `--input-type` (node -e) would make loading a worker file fail.
    execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const onMsg = (m: WorkerMsg) => {
        if (m.type === 'ready') done(), resolve();
        else if (m.type === 'error') done(), reject(new Error(`PGlite failed to start in ${dataDir}: ${m.message}`));
      };
      const onErr = (e: Error) => (done(), reject(e));
      const onExit = (code: number | null, signal: string | null) => (done(), reject(new Error(`PGlite worker exited (${signal ?? code}) while starting`)));
      const done = () => {
        child.off('message', onMsg);
        child.off('error', onErr);
        child.off('exit', onExit);
      };
      child.on('message', onMsg);
      child.on('error', onErr);
      child.on('exit', onExit);
    });
    return child;
  } catch (err) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw err;
  }
}

async function openPglite(dataDirOpt: string, onWorkerExit?: (error: Error) => void): Promise<DbHandle> {
  const dataDir = path.resolve(dataDirOpt);
  const lock: DataDirLock = acquireDataDirLock(dataDir);
  const socketPath = socketPathFor(dataDir);
  let worker: ChildProcess;
  try {
    worker = await startWorker(dataDir, socketPath, false);
  } catch (err) {
    lock.release();
    throw err;
  }

  let closing = false;
  let restartTimer: NodeJS.Timeout | undefined;
  /**
   * A worker that ends while the app runs is a database gone away: the app is told at once (it
   * degrades as for PostgreSQL away), and a new worker reopens the files on disk, retried with a
   * growing pause. The connection pool reconnects to it by itself; the health probe then notices
   * the database back and the app resumes.
   */
  const supervise = (w: ChildProcess) => {
    w.on('error', (e) => log('error', 'pglite_worker_error', { error: String(e) }));
    w.once('exit', (code, signal) => {
      if (closing) return;
      const error = new Error(`PGlite worker exited unexpectedly (${signal ?? code})`);
      log('error', 'pglite_worker_exited', { code, signal });
      onWorkerExit?.(error);
      restart(0);
    });
  };
  const restart = (attempt: number) => {
    const wait = Math.min(RESTART_FIRST_MS * 2 ** attempt, RESTART_MAX_MS);
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (closing) return;
      startWorker(dataDir, socketPath, true).then(
        (w) => {
          if (closing) return void w.kill('SIGKILL');
          worker = w;
          supervise(w);
          log('info', 'pglite_worker_restarted', { attempt: attempt + 1 });
        },
        (e: unknown) => {
          log('warn', 'pglite_worker_restart_failed', { attempt: attempt + 1, error: String((e as Error)?.message ?? e) });
          if (!closing) restart(attempt + 1);
        },
      );
    }, wait);
    restartTimer.unref();
  };
  supervise(worker);

  const sql = postgres({
    path: socketPath,
    max: 1,
    // Never recycled: PGlite is one session for the worker's life, so a new connection would find the
    // last one's named statements still there (src/server/db/named.ts) and add its own beside them.
    max_lifetime: null,
    username: 'postgres',
    database: 'postgres',
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_S,
    backoff: reconnectDelay,
  });
  const db = wrap(sql);

  let closed: Promise<void> | undefined;
  return {
    db,
    sql,
    engine: 'pglite',
    close() {
      closed ??= (async () => {
        closing = true;
        clearTimeout(restartTimer);
        await sql.end({ timeout: 5 }).catch(() => {});
        const w = worker;
        if (w.exitCode === null && w.signalCode === null && w.connected) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, 5000);
            w.once('message', (m: WorkerMsg) => m.type === 'closed' && (clearTimeout(t), resolve()));
            w.once('exit', () => (clearTimeout(t), resolve()));
            w.send({ type: 'close' });
          });
        }
        if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
        lock.release();
      })();
      return closed;
    },
  };
}

/**
 * drizzle() makes postgres.js pass date/time values through untouched (Drizzle converts them
 * itself). Let raw `sql` queries still take Date parameters. Raw queries return timestamps as
 * strings (e.g. '2026-11-20 11:07:00+00'); use Drizzle queries to get Date objects.
 */
function wrap(sql: postgres.Sql): Db {
  const db = drizzle(withNamedStatements(sql), { schema });
  const dateToIso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  for (const type of ['1184', '1082', '1083', '1114', '1182', '1185', '1115', '1231']) {
    (sql.options.serializers as Record<string, (v: unknown) => unknown>)[type] = dateToIso;
  }
  return db;
}

function openPostgres(url: string, max: number): DbHandle {
  // A database that does not answer is given up on quickly: writes then answer 503 within two seconds.
  const sql = postgres(url, { max, onnotice: () => {}, connect_timeout: CONNECT_TIMEOUT_S, backoff: reconnectDelay });
  const db = wrap(sql);
  let closed: Promise<void> | undefined;
  return {
    db,
    sql,
    engine: 'postgres',
    close() {
      closed ??= sql.end({ timeout: 5 });
      return closed;
    },
  };
}

/** Opens a database (no migrations, no seed, no singleton): startup.ts and the tests use it. */
export async function openDb(opts: OpenDbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.max ?? 10);
  return openPglite(opts.dataDir ?? './data', opts.onWorkerExit);
}
