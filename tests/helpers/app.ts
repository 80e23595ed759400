/**
 * The built server, started for real on each engine, for API tests over HTTP:
 *
 *   forEachApp('accounts', (app) => {
 *     it('…', async () => { const res = await app().fetch('/api/login', { method: 'POST', json: {...} }); });
 *   });
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { createDatabase, dropDatabase } from './postgres';
import { openDb } from '../../src/server/db/client';
import type { DbHandle } from '../../src/server/db/types';
import { NO_BOOKING_LIMITS } from './limits';
import { freePort } from './server';

export type Engine = 'pglite' | 'postgres';
const root = path.resolve(import.meta.dirname, '../..');

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  json?: unknown;
  body?: BodyInit;
  /** Cookie header value to send (see `cookieJar`). */
  cookie?: string;
}

export interface App {
  engine: Engine;
  url: string;
  /** DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) of this server. */
  dataDir?: string;
  databaseUrl?: string;
  /** Everything the server printed, for asserting on logs. */
  output(): string;
  /** Resolves when what the server printed (from offset `from`) matches `pattern`, at once if it already does. */
  waitForOutput(pattern: RegExp, what?: string, from?: number): Promise<void>;
  fetch(pathname: string, options?: RequestOptions): Promise<Response>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  process: ChildProcess;
}


export interface StartOptions {
  /** Share this PostgreSQL database with another app (a second instance); it is not dropped on stop. */
  databaseUrl?: string;
}

/**
 * Starts the server as `npm start` runs it (`scripts/start.mjs`: the HTTP edge, graceful shutdown)
 * on a fresh copy of the seeded data, or on a fresh PostgreSQL database.
 */
export async function startApp(engine: Engine, env: Record<string, string> = {}, options: StartOptions = {}): Promise<App> {
  const port = await freePort();
  const extra: Record<string, string> = {};
  let dataDir: string | undefined;
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  if (engine === 'pglite') {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-app-'));
    fs.cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    extra.DATA_DIR = dataDir;
  } else if (options.databaseUrl) {
    databaseUrl = options.databaseUrl;
    extra.DATABASE_URL = databaseUrl;
  } else {
    dbName = `app_${crypto.randomBytes(6).toString('hex')}`;
    databaseUrl = await createDatabase(inject('pgUrl'), dbName);
    extra.DATABASE_URL = databaseUrl;
  }
  let output = '';
  const waiters = new Set<() => void>();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production', SUGU_LOG_REQUESTS: '1', ...NO_BOOKING_LIMITS, ...extra, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d: Buffer) => {
    output += d;
    for (const wake of waiters) wake();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    engine,
    url,
    dataDir,
    databaseUrl,
    process: child,
    output: () => output,
    waitForOutput(pattern, what = String(pattern), from = 0) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output.slice(from))) done(resolve);
          else if (child.exitCode !== null) done(() => reject(new Error(`server exited before printing ${what}`)));
        };
        const done = (settle: () => void) => {
          waiters.delete(check);
          child.off('exit', check);
          settle();
        };
        waiters.add(check);
        child.on('exit', check);
        check();
      });
    },
    fetch(pathname, options = {}) {
      const { json, cookie, headers, ...rest } = options;
      const h = new Headers(headers);
      if (json !== undefined) h.set('content-type', 'application/json');
      if (cookie) h.set('cookie', cookie);
      // Same-origin, as a browser on the site would send it.
      if (!h.has('origin')) h.set('origin', url);
      return fetch(url + pathname, { redirect: 'manual', ...rest, headers: h, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (dbName) await dropDatabase(inject('pgUrl'), dbName).catch(() => {});
    },
  };
}

/** Runs the block against a real server on PGlite and on PostgreSQL. */
export function forEachApp(name: string, body: (app: () => App) => void, env: Record<string, string> = {}): void {
  for (const engine of ['pglite', 'postgres'] as const) {
    describe(`${name} [${engine}]`, () => {
      let app: App | undefined;
      beforeAll(async () => {
        app = await startApp(engine, env);
      });
      afterAll(async () => {
        await app?.stop();
      });
      body(() => {
        if (!app) throw new Error('app not started');
        return app;
      });
    });
  }
}

/**
 * A direct database connection to an app's PostgreSQL database, for asserting on what was stored.
 * (An embedded database is locked by its server; read it through the API, or stop the server first.)
 */
export async function openAppDb(app: App): Promise<DbHandle> {
  if (!app.databaseUrl) throw new Error('only PostgreSQL apps can be opened while running');
  return openDb({ databaseUrl: app.databaseUrl, max: 2 });
}

/**
 * Resolves with the first truthy result of `check`, asked again each time the previous answer has
 * come back (for state the server changes after it has answered, such as a mail in the outbox).
 */
export async function until<T>(check: () => Promise<T | undefined | false>, what: string, attempts = 600): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no ${what} after ${attempts} attempts`);
}

/** Collects Set-Cookie headers into a Cookie header, like a browser would. */
export class CookieJar {
  private cookies = new Map<string, string>();
  store(res: Response): this {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}
