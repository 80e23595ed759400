/**
 * vitest globalSetup for the API project: one throwaway PostgreSQL cluster, a fresh build of the
 * server, seeded databases on both engines that each server copies instead of migrating and
 * seeding again, and one server per engine shared by the files that need none of their own
 * (`forEachApp(…, { shared: true })`, tests/helpers/app.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import startPostgresForRun, { createDatabase, dropDatabase } from './postgres';
import { openAndPrepare } from '../../src/server/db/startup';
import { buildIfNeeded } from '../../scripts/build-if-needed.mjs';
import { launchApp, startMailCatcher, type Engine } from './app';
import { freePort } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** A seeded PostgreSQL database on the run's cluster, for `create database … template`. */
    pgTemplate: string;
    /** The shared servers: their URL and the file their output goes to. */
    sharedApps: Record<Engine, { url: string; log: string; databaseUrl?: string; mailLog: string }>;
  }
}

type Provide = <K extends 'pgUrl' | 'pgliteTemplate' | 'pgTemplate' | 'sharedApps'>(key: K, value: import('vitest').ProvidedContext[K]) => void;

export default async function setup(project: { provide: Provide }) {
  let pgUrl = '';
  const stopPostgres = await startPostgresForRun({ provide: (_key: 'pgUrl', url: string) => ((pgUrl = url), project.provide('pgUrl', url)) });
  buildIfNeeded();
  // Named for this run: TEST_DATABASE_URL may point several runs at one server.
  const run = crypto.randomBytes(4).toString('hex');
  const PG_TEMPLATE = `sugu_template_${run}`;
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-template-'));
  // The two seeds run side by side: PGlite's in this process, PostgreSQL's in its server.
  const pgTemplateUrl = await createDatabase(pgUrl, PG_TEMPLATE);
  await Promise.all(
    [{ dataDir: template }, { databaseUrl: pgTemplateUrl, max: 2 }].map(async (where) => {
      const handle = await openAndPrepare({ ...where, seed: true });
      await handle.close();
    }),
  );
  fs.rmSync(path.join(template, 'sugu.lock'), { force: true });
  project.provide('pgliteTemplate', template);
  project.provide('pgTemplate', PG_TEMPLATE);

  // The shared servers are started here but not waited for: files that use them wait for /readyz
  // (sharedApp), the others start at once.
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-shared-'));
  const sharedDir = path.join(shared, 'data');
  fs.cpSync(template, sharedDir, { recursive: true });
  const sharedDb = await createDatabase(pgUrl, `sugu_shared_${run}`, PG_TEMPLATE);
  // Files sharing a server each send their own X-Forwarded-For (sharedApp), so it trusts this host.
  const env = { TRUST_PROXY: '127.0.0.1' };
  // Their mail goes to catchers in this process, logged to files the test files read (mailedTo).
  const catchers = [await startMailCatcher(), await startMailCatcher()];
  const apps = [
    launchApp(
      'pglite',
      await freePort(),
      { ...env, DATA_DIR: sharedDir, SMTP_URL: catchers[0]!.smtp.url },
      { dataDir: sharedDir, log: path.join(shared, 'pglite.log'), mailLog: catchers[0]!.file },
    ),
    launchApp(
      'postgres',
      await freePort(),
      { ...env, DATABASE_URL: sharedDb, SMTP_URL: catchers[1]!.smtp.url },
      { databaseUrl: sharedDb, log: path.join(shared, 'postgres.log'), mailLog: catchers[1]!.file },
    ),
  ];
  for (const app of apps) app.ready.catch(() => {}); // a failed start is reported to the files that use it
  project.provide('sharedApps', {
    pglite: { url: apps[0]!.url, log: path.join(shared, 'pglite.log'), mailLog: catchers[0]!.file },
    postgres: { url: apps[1]!.url, log: path.join(shared, 'postgres.log'), databaseUrl: sharedDb, mailLog: catchers[1]!.file },
  });
  return async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await Promise.all(catchers.map((c) => c.close()));
    for (const name of [`sugu_shared_${run}`, PG_TEMPLATE]) await dropDatabase(pgUrl, name).catch(() => {});
    await stopPostgres?.();
    fs.rmSync(template, { recursive: true, force: true });
    fs.rmSync(shared, { recursive: true, force: true });
  };
}
