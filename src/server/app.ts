/**
 * The application context: built once when the server starts — the validated configuration, the
 * database, the background jobs — and stopped in a known order when it stops.
 *
 * Started by scripts/start.mjs right after the server listens (the built server's entry exports
 * `startApp`: src/server/appLifecycle.ts), and by `npm run dev` when its server starts. The middleware
 * asks for it too, so that a server started any other way (`astro preview`) starts it with its
 * first request. Routes reach the database through `getDb()` (src/server/db/startup.ts), which is
 * this context's database.
 */
import { config, type Config } from './config';
import { closeDb, getDbHandle } from './db/startup';
import type { DbHandle } from './db/types';
import { createJobs, type Jobs } from './jobs';
import { startBackgroundWork } from './background';
import { runShutdown } from './shutdown';
import { reloadSafe } from './reloadSafe';
import { log } from './log';

export interface AppContext {
  config: Config;
  /** The database, opening when the app starts (a failed open is tried again by the next query). */
  db(): Promise<DbHandle>;
  jobs: Jobs;
  /**
   * First stage of a shutdown, as soon as the server refuses new connections: ends the live
   * streams (their clients reconnect to another instance), then stops the jobs, the last started first.
   */
  stop(): Promise<void>;
  /** Second stage, once in-flight requests are answered: closes the database (releasing DATA_DIR). */
  close(): Promise<void>;
}

// One app per process, also across a module reload in `npm run dev` (src/server/reloadSafe.ts).
const slot = reloadSafe('app', (): { current?: AppContext } => ({}));

const report = (error: unknown) => log('error', 'shutdown_step_failed', { error: String(error) });

/**
 * Starts the app once per process (later calls answer the same context): reads the configuration
 * (validated once, src/server/config.ts), opens the database and starts the background jobs
 * (src/server/background.ts). Does not wait for the database: a server whose database is away at
 * start still answers, and says so (/readyz).
 */
export function startApp(): AppContext {
  if (slot.current) return slot.current;
  const settings = config();
  const jobs = createJobs();
  let stopped: Promise<void> | undefined;
  let closed: Promise<void> | undefined;
  const app: AppContext = {
    config: settings,
    db: getDbHandle,
    jobs,
    stop: () =>
      (stopped ??= (async () => {
        await runShutdown('stop', report);
        await jobs.stop();
      })()),
    close: () =>
      (closed ??= (async () => {
        await app.stop();
        await runShutdown('close', report);
        await closeDb();
        if (slot.current === app) slot.current = undefined;
      })()),
  };
  slot.current = app;
  // Opened now rather than by the first request; a failure is logged and the next query tries again.
  getDbHandle().catch((error: unknown) => log('error', 'database_open_failed', { error: String((error as Error)?.message ?? error) }));
  startBackgroundWork(jobs, settings);
  return app;
}

/** The running app, if it was started. */
export function getApp(): AppContext | undefined {
  return slot.current;
}
