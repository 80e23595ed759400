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
import { startSmtp, type LoggedMail, type TestSmtp } from './smtp';
import { checkAgainstDocument } from './openapi-check';

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
  /**
   * The file the mail this server sends is logged to (one JSON line each, see mailedTo), when the
   * helper gave it its mail catcher; undefined when the test set SMTP_URL itself.
   */
  mailLog?: string;
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
 * on a fresh copy of the seeded data, or on a fresh PostgreSQL database (a copy of the seeded
 * template; a server on a controlled clock gets an empty one and seeds it at its own `now`).
 */
export async function startApp(engine: Engine, env: Record<string, string> = {}, options: StartOptions = {}): Promise<App> {
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
    databaseUrl = await createDatabase(inject('pgUrl'), dbName, env.SUGU_CLOCK ? undefined : inject('pgTemplate'));
    extra.DATABASE_URL = databaseUrl;
  }
  // Mail goes out for real, to a catcher whose log tests read (mailedTo), unless the test brings its own.
  const catcher = 'SMTP_URL' in env ? undefined : await startMailCatcher();
  if (catcher) extra.SMTP_URL = catcher.smtp.url;
  const app = launchApp(engine, await freePort(), { ...extra, ...env }, { dataDir, databaseUrl, mailLog: catcher?.file });
  const stop = app.stop;
  app.stop = async (signal) => {
    await stop(signal);
    await catcher?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await dropDatabase(inject('pgUrl'), dbName).catch(() => {});
  };
  try {
    await app.ready;
  } catch (err) {
    await app.stop('SIGKILL');
    throw err;
  }
  return app;
}

/**
 * Spawns the server on `port` and the database `env` names (DATA_DIR or DATABASE_URL) without
 * waiting for it: `ready` resolves once /readyz answers. `log`, when given, receives all it prints.
 */
export function launchApp(
  engine: Engine,
  port: number,
  env: Record<string, string>,
  where: { dataDir?: string; databaseUrl?: string; log?: string; mailLog?: string } = {},
): App & { ready: Promise<void> } {
  let output = '';
  const waiters = new Set<() => void>();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production', SUGU_LOG_REQUESTS: '1', ...NO_BOOKING_LIMITS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = where.log ? fs.createWriteStream(where.log) : undefined;
  const collect = (d: Buffer) => {
    output += d;
    log?.write(d);
    for (const wake of waiters) wake();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  child.once('exit', () => log?.end());
  const ready = (async () => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
      try {
        if ((await fetch(`${url}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server not ready in time:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    engine,
    url,
    dataDir: where.dataDir,
    databaseUrl: where.databaseUrl,
    mailLog: where.mailLog,
    process: child,
    ready,
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
    fetch: (pathname, options = {}) => fetchFrom(url, pathname, options),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
  };
}

/** A real SMTP server logging what it receives to a file of its own (see startSmtp's `logTo`). */
export async function startMailCatcher(): Promise<{ smtp: TestSmtp; file: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-mail-'));
  const file = path.join(dir, 'mail.jsonl');
  fs.writeFileSync(file, '');
  const smtp = await startSmtp({ logTo: file });
  return {
    smtp,
    file,
    async close() {
      await smtp.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The mails the app has sent to `to` (exact address, any case) so far, oldest first, read from its
 * catcher's log; throws for an app without one (the test set SMTP_URL: read its own server).
 */
export function mailedTo(app: App, to: string): LoggedMail[] {
  if (!app.mailLog) throw new Error('this app sends its mail to the SMTP server its test started: read that one');
  let text = '';
  try {
    text = fs.readFileSync(app.mailLog, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedMail)
    .filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

async function fetchFrom(url: string, pathname: string, options: RequestOptions, client?: string): Promise<Response> {
  const { json, cookie, headers, ...rest } = options;
  const h = new Headers(headers);
  if (client && !h.has('x-forwarded-for')) h.set('x-forwarded-for', client);
  if (json !== undefined) h.set('content-type', 'application/json');
  if (cookie) h.set('cookie', cookie);
  // Same-origin, as a browser on the site would send it.
  if (!h.has('origin')) h.set('origin', url);
  const res = await fetch(url + pathname, { redirect: 'manual', ...rest, headers: h, body: json !== undefined ? JSON.stringify(json) : rest.body });
  // Every answer of every API test is held to the OpenAPI document.
  await checkAgainstDocument(rest.method ?? 'GET', new URL(url + pathname), res);
  return res;
}

/**
 * The server of `engine` that global setup started for the whole run (tests/helpers/global-setup.ts),
 * on its own copy of the seeded data, for files whose tests need no environment of their own and
 * no fresh database. Stopping it is left to global setup; its log is read from the file it writes.
 * The server trusts 127.0.0.1 as its proxy, and each call here gets an address of its own, sent
 * as X-Forwarded-For: the abuse limits count per file, as they would on a server of its own.
 */
export async function sharedApp(engine: Engine): Promise<App> {
  const { url, log, databaseUrl, mailLog } = inject('sharedApps')[engine];
  const client = `10.${[...crypto.randomBytes(3)].join('.')}`;
  const readLog = () => {
    try {
      return fs.readFileSync(log, 'utf8');
    } catch {
      return '';
    }
  };
  for (const deadline = Date.now() + 150_000; ; ) {
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`the shared ${engine} server is not ready:\n${readLog()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    engine,
    url,
    databaseUrl,
    mailLog,
    output: readLog,
    async waitForOutput(pattern, what = String(pattern), from = 0) {
      for (const deadline = Date.now() + 30_000; !pattern.test(readLog().slice(from)); ) {
        if (Date.now() > deadline) throw new Error(`the shared ${engine} server did not print ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    fetch: (pathname, options = {}) => fetchFrom(url, pathname, options, client),
    async stop() {
      throw new Error('the shared server runs for the whole test run; a test that stops its server needs its own (forEachApp without `shared`)');
    },
    get process(): ChildProcess {
      throw new Error('the shared server is a child of global setup, not of this file');
    },
  };
}

export interface ForEachAppOptions {
  /**
   * Use the run's shared server of each engine instead of starting one for this file. Only for
   * files that set no `env`, never stop or signal the server, and pass on a database other files
   * write to (no counts of everything, no "the first store", their own accounts, addresses and
   * rate-limit keys).
   */
  shared?: boolean;
}

/** Runs the block against a real server on PGlite and on PostgreSQL (see ForEachAppOptions.shared). */
export function forEachApp(name: string, body: (app: () => App) => void, env: Record<string, string> = {}, options: ForEachAppOptions = {}): void {
  if (options.shared && Object.keys(env).length > 0) throw new Error(`${name}: a shared server cannot take an env of its own`);
  for (const engine of ['pglite', 'postgres'] as const) {
    describe(`${name} [${engine}]`, () => {
      let app: App | undefined;
      beforeAll(async () => {
        app = options.shared ? await sharedApp(engine) : await startApp(engine, env);
      });
      afterAll(async () => {
        if (!options.shared) await app?.stop();
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
