/**
 * `npm run db:reset` → `tsx src/server/db/reset.ts`
 *
 * Embedded (no DATABASE_URL): deletes DATA_DIR's database (refusing while another Sugu
 * process holds DATA_DIR), then migrates and seeds a fresh one.
 * PostgreSQL (DATABASE_URL): drops and recreates the `public` and `drizzle` schemas, then
 * migrates and seeds.
 */
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { openAndPrepare } from './startup';
import { acquireDataDirLock, DataDirLockedError } from './lock';
import { config, ConfigError, type Config } from '../config';

export async function resetDatabase(opts: { dataDir?: string; databaseUrl?: string; now?: Date }) {
  if (opts.databaseUrl) {
    const sql = postgres(opts.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe('drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public;');
    } finally {
      await sql.end({ timeout: 5 });
    }
  } else {
    const dataDir = path.resolve(opts.dataDir ?? './data');
    const lock = acquireDataDirLock(dataDir); // throws DataDirLockedError while the app runs
    try {
      fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    } finally {
      lock.release();
    }
  }
  const t0 = performance.now();
  const handle = await openAndPrepare({ ...opts, seed: true });
  try {
    const [row] = await handle.sql<{ stores: number; bookings: number }[]>`
      select (select count(*)::int from stores) as stores, (select count(*)::int from bookings) as bookings`;
    return { engine: handle.engine, ms: Math.round(performance.now() - t0), ...row! };
  } finally {
    await handle.close();
  }
}

const isMain = process.argv[1] && /reset\.(ts|js|mjs)$/.test(process.argv[1]);
if (isMain) {
  let settings: Config;
  try {
    settings = config();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
  const { DATABASE_URL: databaseUrl, DATA_DIR: dataDir } = settings;
  resetDatabase({ databaseUrl, dataDir })
    .then((r) => {
      const where = databaseUrl ? 'DATABASE_URL' : `DATA_DIR=${path.resolve(dataDir)}`;
      console.log(`Reset ${r.engine} database (${where}): ${r.stores} stores, ${r.bookings} bookings in ${r.ms} ms.`);
      console.log('Demo account: demo@sugu.jp / sugu-demo-2026');
    })
    .catch((err) => {
      console.error(err instanceof DataDirLockedError ? err.message : err);
      process.exit(1);
    });
}
