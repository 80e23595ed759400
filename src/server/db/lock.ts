/**
 * Exclusive lock on DATA_DIR for the embedded database.
 *
 * PGlite takes no lock on its data directory, and two processes on one directory
 * silently lose rows. `${dataDir}/sugu.lock` holds the owner's PID; a lock whose
 * PID is dead (crash, kill -9) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { reloadSafe } from '../reloadSafe';

export const LOCK_FILE = 'sugu.lock';

export class DataDirLockedError extends Error {
  readonly code = 'DATA_DIR_LOCKED';
  constructor(
    readonly pid: number,
    readonly dataDir: string,
  ) {
    super(`Another Sugu process (pid ${pid}) is using DATA_DIR=${dataDir}. Stop it, or set DATA_DIR to another folder, or use DATABASE_URL.`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  readonly pid: number;
  release(): void;
}

/** True when a process with this PID exists (EPERM still means it exists). */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process that its parent has not reaped yet (zombie) still answers kill(pid, 0).
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
  } catch {
    /* no /proc (macOS) or gone */
  }
  return true;
}

/** PID recorded in the lock file of `dataDir`, or null when there is none / it is unreadable. */
export function readLockPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}

// Kept across a module reload (npm run dev), so that the process still sees the locks it holds
// rather than mistaking its own lock for a stale one.
const held = reloadSafe('dataDirLocks', () => new Map<string, DataDirLock>());

/**
 * Take the lock on `dataDir` (created if missing) or throw DataDirLockedError at once.
 * Released by `release()`, and on process exit as a safety net.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new DataDirLockedError(process.pid, dir);

  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = readLockPid(dir);
      if (pid !== null && pid !== process.pid && isPidAlive(pid)) throw new DataDirLockedError(pid, dir);
      if (pid === null) {
        // Being written right now by another process, or garbage: give a writer a moment.
        const age = Date.now() - safeMtime(file);
        if (age < 2000 && attempt < 4) {
          sleepSync(100);
          continue;
        }
      }
      // Stale lock (dead PID, or our own PID recycled from a crashed run): take it over.
      try {
        fs.unlinkSync(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      continue;
    }
    try {
      fs.writeSync(fd, `${process.pid}\n`);
    } finally {
      fs.closeSync(fd);
    }
    const onExit = () => releaseFile(file);
    process.once('exit', onExit);
    const lock: DataDirLock = {
      path: file,
      pid: process.pid,
      release() {
        process.removeListener('exit', onExit);
        releaseFile(file);
      },
    };
    held.set(file, lock);
    return lock;
  }
  const pid = readLockPid(dir) ?? -1;
  throw new DataDirLockedError(pid, dir);
}

function releaseFile(file: string) {
  held.delete(file);
  try {
    // Only remove it if it is still ours.
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    if (pid === process.pid) fs.unlinkSync(file);
  } catch {
    /* already gone */
  }
}

function safeMtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
