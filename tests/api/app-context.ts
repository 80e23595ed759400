/**
 * The application context (src/server/app.ts) in this process, on a copy of the seeded database
 * (one engine per file: the configuration is read once per process): the background jobs start
 * with the app and run at once, and its stop leaves no job and no timer behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import crypto from 'node:crypto';
import { openDb } from '../../src/server/db/client';
import { createDatabase, dropDatabase } from '../helpers/postgres';
import { idempotencyKeys } from '../../src/server/db/schema';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { watchIntervals, type IntervalWatch } from '../helpers/intervals';

type AppModule = typeof import('../../src/server/app');

export function appContextSuite(engine: 'pglite' | 'postgres') {
  describe(`the application context [${engine}]`, () => {
    let dataDir: string;
    let databaseUrl = '';
    const dbName = `context_${crypto.randomBytes(6).toString('hex')}`;
    let smtp: TestSmtp;
    let appModule: AppModule;
    let app: ReturnType<AppModule['startApp']>;
    let intervals: IntervalWatch;
    const restore: Record<string, string | undefined> = {};

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-context-'));
      fs.cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
      smtp = await startSmtp();
      // Before anything reads the configuration, which is read once (opening a database reads it).
      if (engine === 'postgres') databaseUrl = await createDatabase(inject('pgUrl'), dbName, inject('pgTemplate'));
      for (const [name, value] of Object.entries({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, SUGU_LOG_REQUESTS: '0' })) {
        restore[name] = process.env[name];
        process.env[name] = value;
      }
      // An answer kept for an Idempotency-Key two days ago: the sweep that starts with the app deletes it.
      const handle = await openDb(engine === 'postgres' ? { databaseUrl } : { dataDir });
      await handle.db
        .insert(idempotencyKeys)
        .values({ id: 'kept-two-days', fingerprint: 'f', status: 201, answer: '{}', createdAt: new Date(Date.now() - 48 * 3_600_000) });
      await handle.close();
      appModule = await import('../../src/server/app');
      intervals = watchIntervals();
      app = appModule.startApp();
      await app.jobs.started();
    });

    afterAll(async () => {
      await app?.close();
      intervals?.restore();
      for (const [name, value] of Object.entries(restore)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await smtp?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (engine === 'postgres') await dropDatabase(inject('pgUrl'), dbName).catch(() => {});
    });

    it('starts every background job with the app, without waiting for a request', () => {
      expect(app.jobs.running().sort()).toEqual(
        [
          'auto release',
          'availability feed',
          'hold expiry',
          'idempotency sweep',
          'mail delivery',
          'push delivery',
          'queue expiry',
          'reminders',
          'watch prune',
          'watch reload',
          // PostgreSQL's only: PGlite is one instance, with nothing to hear from others.
          ...(engine === 'postgres' ? ['watch listen'] : []),
        ].sort(),
      );
    });

    it('is one context per process, and its database is the one the routes use', async () => {
      expect(appModule.startApp()).toBe(app);
      expect(appModule.getApp()).toBe(app);
      const { getDb } = await import('../../src/server/db/startup');
      expect(await getDb()).toBe((await app.db()).db);
    });

    it('runs its jobs at once: the sweep has deleted the expired answer', async () => {
      const { db } = await app.db();
      await expect
        .poll(async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from idempotency_keys where id = 'kept-two-days'`))[0]!.n, {
          timeout: 20_000,
        })
        .toBe(0);
    });

    it('reads the configuration once: a later change of the environment changes nothing', async () => {
      const { config } = await import('../../src/server/config');
      expect(app.config).toBe(config());
      expect(app.config.DATA_DIR).toBe(dataDir);
      process.env.DATA_DIR = path.join(dataDir, 'elsewhere');
      expect(config()).toBe(app.config);
      expect(config().DATA_DIR).toBe(dataDir);
      process.env.DATA_DIR = dataDir;
    });

    it('stops every job and closes the database on stop, leaving no timer behind', async () => {
      // Something to clear: at least the seven periodic jobs' timers (the workers and the feed have theirs too).
      expect(intervals.left().length).toBeGreaterThanOrEqual(7);
      await app.close();
      expect(app.jobs.running()).toEqual([]);
      expect(intervals.left()).toEqual([]);
      expect(appModule.getApp()).toBeUndefined();
      // The database is closed: on PGlite, DATA_DIR can be opened by another handle at once.
      const again = await openDb(engine === 'postgres' ? { databaseUrl } : { dataDir });
      expect((await again.db.execute<{ n: number }>(sql`select 1 as n`))[0]!.n).toBe(1);
      await again.close();
    });
  });
}
