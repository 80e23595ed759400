/**
 * How the server's Node process is started (scripts/start.mjs starts itself again with these when it
 * was launched without them: `process.execve`, the same process id, so `npm start`, the tests and the
 * benches all run the server as configured here). Measured on the demo data in bench/memory.mjs.
 */

/**
 * V8's young generation grows to 3 × 16 MB semi-spaces ×2 (about 130 MB resident) while the server
 * starts (migrations, the availability index, the first pages) and keeps it; capped at 8 MB it stays
 * near 25 MB, for a scavenge a little more often (each well under a millisecond at this size).
 */
// --optimize-for-size took the server to 133 MiB after the warm-up, but nearly doubled /home's CPU
// time per request (7 → 13 ms): not worth it.
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/**
 * glibc's malloc, told to give memory back: it keeps an arena per thread that allocated (libuv's
 * pool, V8's compiler and GC threads), each holding on to what was freed in it, so two arenas; and
 * its threshold for serving a large block by mmap rises after each one freed (up to 32 MB), after
 * which password hashing's 19 MB blocks stay in the arenas once freed: fixed at 128 KB, blocks that
 * large are mapped and unmapped, and an arena's free top is returned beyond 128 KB. Applies to the
 * PGlite worker too (it inherits the environment).
 */
export const PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/**
 * The command line and environment to start the server again with, or null when it already runs
 * with them (or the runtime cannot replace its own process: then it runs as launched).
 */
export function relaunch(
  execArgv: readonly string[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  canExec: boolean,
): { args: string[]; env: NodeJS.ProcessEnv } | null {
  if (!canExec || env.SUGU_RELAUNCHED === '1') return null;
  const given = new Set(execArgv.map((a) => a.split('=')[0]));
  const missing = NODE_FLAGS.filter((f) => !given.has(f.split('=')[0]));
  // An operator's own value (MALLOC_ARENA_MAX=4, --max-semi-space-size=16) wins.
  const envMissing = Object.entries(PROCESS_ENV).filter(([k]) => env[k] === undefined);
  if (!missing.length && !envMissing.length) return null;
  return {
    args: [...missing, ...execArgv, ...argv.slice(1)],
    env: { ...env, ...Object.fromEntries(envMissing), SUGU_RELAUNCHED: '1' },
  };
}
