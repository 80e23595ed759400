/**
 * A throwaway PostgreSQL cluster for the test run (Debian `postgresql` package).
 *
 * As a vitest globalSetup (default export) it starts one cluster, provides its URL as
 * `inject('pgUrl')`, and stops it at the end. Set TEST_DATABASE_URL to use an existing
 * server instead (each test file still gets its own database via createDatabase).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server';
import postgres from 'postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export interface PgCluster {
  url: string;
  stop(): Promise<void>;
  /** Stops the server but keeps its data, as an outage would (see `resume`). */
  pause(): void;
  /** Starts the paused server again on the same port and data. */
  resume(): void;
}

const INSTALL_HINT =
  'PostgreSQL is not installed. Install it with:\n\n    apt-get install -y postgresql\n\n' +
  '(or set PG_BIN to the folder holding initdb and pg_ctl, or TEST_DATABASE_URL to a PostgreSQL server the tests may create databases on).';

function findBinDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && fs.existsSync(path.join(fromEnv, 'initdb'))) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  throw new Error(INSTALL_HINT);
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as user `postgres` when we are root (initdb refuses root). */
function runPg(bin: string, args: string[]) {
  const [cmd, argv] = isRoot()
    ? fs.existsSync('/usr/sbin/runuser') || fs.existsSync('/sbin/runuser')
      ? ['runuser', ['-u', 'postgres', '--', bin, ...args]]
      : ['su', ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')]]
    : [bin, args];
  const r = spawnSync(cmd as string, argv as string[], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' } });
  if (r.status !== 0) {
    throw new Error(`${path.basename(bin)} failed (${r.status}): ${r.stderr || r.stdout || r.error?.message}`);
  }
  return r.stdout;
}

/** Starts a fresh cluster on a free port; fsync off, listening on 127.0.0.1 and a socket in its temp dir. */
export async function startPostgres(): Promise<PgCluster> {
  const bin = findBinDir();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-pg-'));
  const data = path.join(tmp, 'data');
  if (isRoot()) {
    fs.chmodSync(tmp, 0o755);
    execFileSync('chown', ['-R', 'postgres:', tmp]);
  }
  runPg(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -k ${tmp} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => runPg(path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(tmp, 'server.log'), '-w', '-t', '30', 'start']);
  start();
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      runPg(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        runPg(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Creates database `name` on the server of `adminUrl`; returns its URL. With `template`, a copy of
 * that database (file by file, far quicker than migrating and seeding again).
 */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  if (template !== undefined && !/^[a-z_][a-z0-9_]*$/.test(template)) throw new Error(`bad template name ${template}`);
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** vitest globalSetup: one cluster per test run. */
export default async function setup(project: { provide: (key: 'pgUrl', value: string) => void }) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('pgUrl', external);
    return;
  }
  const cluster = await startPostgres();
  project.provide('pgUrl', cluster.url);
  return () => cluster.stop();
}
