import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, isPidAlive, LOCK_FILE, readLockPid } from '../../src/server/db/lock';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LOCK_TS = path.join(ROOT, 'src/server/db/lock.ts');

/** A real second process that takes the lock on `dir` and stays alive until killed. */
function spawnHolder(dir: string): Promise<ChildProcess> {
  const code = `
    import { acquireDataDirLock } from ${JSON.stringify(LOCK_TS)};
    try { acquireDataDirLock(${JSON.stringify(dir)}); console.log('locked'); }
    catch (e) { console.log('refused: ' + e.message); process.exit(3); }
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('locked')) resolve(child);
      if (out.includes('refused')) reject(new Error(out.trim()));
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (c) => reject(new Error(`holder exited ${c}: ${out}`)));
  });
}

function runOnce(dir: string): Promise<{ code: number | null; out: string }> {
  const code = `
    import { acquireDataDirLock } from ${JSON.stringify(LOCK_TS)};
    try { const l = acquireDataDirLock(${JSON.stringify(dir)}); console.log('locked'); l.release(); }
    catch (e) { console.log(e.message); process.exit(3); }
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (c) => resolve({ code: c, out })));
}

function waitExit(child: ChildProcess) {
  return new Promise<void>((r) => (child.exitCode !== null || child.signalCode ? r() : child.once('exit', () => r())));
}

describe('DATA_DIR lock', () => {
  let dir: string;
  let child: ChildProcess | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-lock-'));
  });
  afterEach(async () => {
    if (child && child.exitCode === null && !child.signalCode) {
      child.kill('SIGKILL');
      await waitExit(child);
    }
    child = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the lock file with our PID and removes it on release', () => {
    const lock = acquireDataDirLock(dir);
    expect(readLockPid(dir)).toBe(process.pid);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(true);
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    // and can be taken again
    acquireDataDirLock(dir).release();
  });

  it('fails at once while another live process holds it, with a clear message', async () => {
    child = await spawnHolder(dir);
    expect(readLockPid(dir)).toBe(child.pid);
    const t0 = performance.now();
    let err: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (e) {
      err = e;
    }
    expect(performance.now() - t0).toBeLessThan(500);
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as Error).message).toBe(
      `Another Sugu process (pid ${child.pid}) is using DATA_DIR=${dir}. Stop it, or set DATA_DIR to another folder, or use DATABASE_URL.`,
    );
    // The holder's lock is untouched.
    expect(readLockPid(dir)).toBe(child.pid);
  });

  it('takes over the lock of a process killed with SIGKILL', async () => {
    child = await spawnHolder(dir);
    const pid = child.pid!;
    child.kill('SIGKILL');
    await waitExit(child);
    expect(isPidAlive(pid)).toBe(false);
    expect(readLockPid(dir)).toBe(pid); // stale file left behind
    const lock = acquireDataDirLock(dir);
    expect(readLockPid(dir)).toBe(process.pid);
    lock.release();
  });

  it('refuses a second process while we hold it, and lets it in after release', async () => {
    const lock = acquireDataDirLock(dir);
    const refused = await runOnce(dir);
    expect(refused.code).toBe(3);
    expect(refused.out).toContain(`Another Sugu process (pid ${process.pid}) is using DATA_DIR=${dir}.`);
    lock.release();
    const ok = await runOnce(dir);
    expect(ok.out).toContain('locked');
    expect(ok.code).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a second lock in the same process', () => {
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
  });

  it('treats an empty or garbage lock file from a crash as stale', () => {
    fs.writeFileSync(path.join(dir, LOCK_FILE), '');
    fs.utimesSync(path.join(dir, LOCK_FILE), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const lock = acquireDataDirLock(dir);
    expect(readLockPid(dir)).toBe(process.pid);
    lock.release();
  });
});
