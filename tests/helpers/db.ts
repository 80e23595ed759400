/**
 * Real databases for tests, on both engines (never mocks):
 *   - PGlite in a fresh temp DATA_DIR (copied from a migrated template made once per file),
 *   - PostgreSQL in a fresh database on the cluster started by tests/helpers/postgres.ts.
 *
 *   forEachEngine('bookings', (get) => {
 *     it('…', async () => { const { db } = get(); … });
 *   }, { seed: true });
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { openDb } from '../../src/server/db/client';
import type { DbHandle } from '../../src/server/db/types';
import { runMigrations } from '../../src/server/db/migrate';
import { seedDemo } from '../../src/server/db/seed';
import { createDatabase, dropDatabase } from './postgres';

export type Engine = 'pglite' | 'postgres';
export const ENGINES: Engine[] = ['pglite', 'postgres'];

export interface TestDbOptions {
  /** Apply migrations (default true). */
  migrate?: boolean;
  /** Seed the demo data (implies migrate). */
  seed?: boolean;
  /** `now` for the seed's bookings. */
  now?: Date;
}

export interface TestDb extends DbHandle {
  /** The temp DATA_DIR (pglite) or database URL (postgres). */
  location: string;
}

let template: Promise<string> | undefined;

/** A migrated, empty PGlite data dir, made once per test file (initdb in WASM takes ~3 s). */
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-tpl-'));
    const h = await openDb({ dataDir: dir });
    try {
      await runMigrations(h);
    } finally {
      await h.close();
    }
    return dir;
  })();
  return template;
}

function cleanupTemplate() {
  const t = template;
  template = undefined;
  return t?.then((dir) => fs.rmSync(dir, { recursive: true, force: true })).catch(() => {});
}

/** Opens a fresh, isolated database on `engine`. close() also deletes it. */
export async function openTestDb(engine: Engine, opts: TestDbOptions = {}): Promise<TestDb> {
  const migrate = opts.migrate ?? true;
  let handle: DbHandle;
  let location: string;
  let cleanup: () => Promise<void>;

  if (engine === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-test-'));
    if (migrate || opts.seed) fs.cpSync(await pgliteTemplate(), dir, { recursive: true });
    handle = await openDb({ dataDir: dir });
    location = dir;
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const adminUrl = inject('pgUrl');
    if (!adminUrl) throw new Error('pgUrl not provided: add tests/helpers/postgres.ts to vitest globalSetup');
    const name = `sugu_t_${crypto.randomBytes(6).toString('hex')}`;
    location = await createDatabase(adminUrl, name);
    handle = await openDb({ databaseUrl: location, max: 10 });
    cleanup = () => dropDatabase(adminUrl, name);
  }

  try {
    if (migrate || opts.seed) await runMigrations(handle);
    if (opts.seed) await seedDemo(handle.db, { now: opts.now });
  } catch (err) {
    await handle.close();
    await cleanup();
    throw err;
  }

  const close = handle.close.bind(handle);
  return {
    ...handle,
    location,
    async close() {
      await close();
      await cleanup();
    },
  };
}

/**
 * Runs `fn` as a describe block once per engine, with a database opened before the block
 * (migrated, optionally seeded) and closed after it.
 */
export function forEachEngine(title: string, fn: (get: () => TestDb, engine: Engine) => void, opts: TestDbOptions = {}): void {
  afterAll(() => cleanupTemplate());
  for (const engine of ENGINES) {
    describe(`${title} [${engine}]`, () => {
      let handle: TestDb | undefined;
      // Seeding an embedded database takes a minute or more on a busy 2-core machine.
      beforeAll(async () => {
        handle = await openTestDb(engine, opts);
      }, 180_000);
      afterAll(async () => {
        await handle?.close();
      }, 30_000);
      fn(() => {
        if (!handle) throw new Error('test database not open');
        return handle;
      }, engine);
    });
  }
}

/** The SQLSTATE of a database error, looking through Drizzle's wrapping (err.cause). */
export function pgCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}
