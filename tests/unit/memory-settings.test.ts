/**
 * The settings that bound the server's memory: the node flags and malloc settings npm start runs
 * with (src/server/runtime.ts) and PostgreSQL's settings in the embedded database
 * (src/server/db/pglite-settings.mjs), checked on a real PGlite.
 */
import { describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { NODE_FLAGS, PROCESS_ENV, relaunch } from '../../src/server/runtime';
import { PGLITE_SETTINGS, pgliteStartParams } from '../../src/server/db/pglite-settings.mjs';

describe('the server process is started with its memory settings', () => {
  const argv = ['/usr/bin/node', '/app/scripts/start.mjs'];

  it('starts again with the flags and malloc settings when launched without them', () => {
    const again = relaunch([], argv, { PATH: '/bin' }, true);
    expect(again?.args).toEqual([...NODE_FLAGS, '/app/scripts/start.mjs']);
    expect(again?.env).toMatchObject({ PATH: '/bin', ...PROCESS_ENV, SUGU_RELAUNCHED: '1' });
  });

  it('keeps the operator’s own flags and values, and their other node options', () => {
    const again = relaunch(['--max-semi-space-size=32', '--inspect'], argv, { MALLOC_ARENA_MAX: '8' }, true);
    expect(again?.args).toEqual([
      ...NODE_FLAGS.filter((f) => !f.startsWith('--max-semi-space-size')),
      '--max-semi-space-size=32',
      '--inspect',
      '/app/scripts/start.mjs',
    ]);
    expect(again?.env.MALLOC_ARENA_MAX).toBe('8');
  });

  it('does not start again once started so, or where the process cannot be replaced', () => {
    expect(relaunch([], argv, { SUGU_RELAUNCHED: '1' }, true)).toBeNull();
    expect(relaunch([...NODE_FLAGS], argv, { ...PROCESS_ENV }, true)).toBeNull();
    expect(relaunch([], argv, {}, false)).toBeNull();
  });
});

describe('the embedded database runs with one session’s settings', () => {
  it('keeps PGlite’s own start parameters and adds each setting once', () => {
    const params = pgliteStartParams(PGlite.defaultStartParams);
    expect(params.slice(0, PGlite.defaultStartParams.length)).toEqual(PGlite.defaultStartParams);
    for (const [name, value] of Object.entries(PGLITE_SETTINGS)) expect(params.filter((p) => p === `${name}=${value}`)).toHaveLength(1);
  });

  it('PostgreSQL reports the bounds it was given', async () => {
    const db = await PGlite.create({ startParams: pgliteStartParams(PGlite.defaultStartParams) });
    try {
      const { rows } = await db.query<{ name: string; setting: string; unit: string | null }>(
        `select name, setting, unit from pg_settings where name = any($1)`,
        [Object.keys(PGLITE_SETTINGS)],
      );
      const mb = (r: { setting: string; unit: string | null }) => (Number(r.setting) * (r.unit === '8kB' ? 8 : r.unit === 'kB' ? 1 : 1024)) / 1024;
      const got = Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${mb(r)}MB` : r.setting]));
      expect(got).toEqual(PGLITE_SETTINGS);
      expect(got.shared_buffers).toBe('16MB');
    } finally {
      await db.close();
    }
  }, 120_000);
});
