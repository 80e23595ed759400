/**
 * vitest globalSetup for the API project: one throwaway PostgreSQL cluster, a fresh build of the
 * server, and a seeded embedded database that each server copies instead of seeding again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import startPostgresForRun from './postgres';
import { openAndPrepare } from '../../src/server/db/startup';
import { buildIfNeeded } from '../../scripts/build-if-needed.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: { provide: (key: 'pgUrl' | 'pgliteTemplate', value: string) => void }) {
  const stopPostgres = await startPostgresForRun(project as { provide: (key: 'pgUrl', value: string) => void });
  buildIfNeeded();
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-template-'));
  const handle = await openAndPrepare({ dataDir: template, seed: true });
  await handle.close();
  fs.rmSync(path.join(template, 'sugu.lock'), { force: true });
  project.provide('pgliteTemplate', template);
  return async () => {
    await stopPostgres?.();
    fs.rmSync(template, { recursive: true, force: true });
  };
}
