/**
 * The background jobs of one app (src/server/app.ts): each is registered here when the app starts
 * and stopped here when it stops, so that what runs besides the requests can be listed, and a stop
 * leaves no timer, LISTEN connection or worker behind.
 */
import { log } from './log';

type Stop = () => Promise<void> | void;

export interface Jobs {
  /** Runs `run` now and then every `ms` (never two runs at once); a failure is logged as `failure` and the next run comes as usual. */
  every(name: string, ms: number, failure: string, run: () => Promise<unknown>): void;
  /**
   * A job that runs by itself once started (a delivery worker, a LISTEN connection): `begin` starts
   * it and answers how to stop it, or nothing when there is nothing to run (no SMTP_URL, not PostgreSQL).
   * A failing start is logged as `failure`; the other jobs run on.
   */
  start(name: string, failure: string, begin: () => Promise<Stop | undefined>): void;
  /** Resolves when every job's start has finished (started, found nothing to run, or failed). */
  started(): Promise<void>;
  /** The names of the jobs running now, in the order they were started. */
  running(): string[];
  /** Stops every job, the last started first, each after its run in progress ends. No job starts after this. */
  stop(): Promise<void>;
}

const message = (error: unknown) => String((error as Error)?.message ?? error);

export function createJobs(): Jobs {
  const active = new Map<string, Stop>();
  const starting = new Set<Promise<void>>();
  let stopped = false;

  const add = (name: string, stop: Stop) => {
    if (active.has(name)) throw new Error(`job "${name}" is already running`);
    active.set(name, stop);
  };

  return {
    every(name, ms, failure, run) {
      if (stopped) return;
      let running: Promise<void> | undefined;
      const tick = () => {
        running ??= run()
          .then(
            () => undefined,
            (error: unknown) => log('error', failure, { error: message(error) }),
          )
          .finally(() => (running = undefined));
      };
      const timer = setInterval(tick, ms);
      // The process may end without stopping its jobs (a crash, a test runner): the timer does not keep it alive.
      timer.unref();
      add(name, async () => {
        clearInterval(timer);
        await running;
      });
      tick();
    },
    start(name, failure, begin) {
      if (stopped) return;
      const pending: Promise<void> = begin().then(
        async (stop) => {
          if (!stop) return;
          // Stopped while it was starting: it stops at once rather than run on unlisted.
          if (stopped) await stop();
          else add(name, stop);
        },
        (error: unknown) => log('error', failure, { error: message(error) }),
      );
      starting.add(pending);
      void pending.finally(() => starting.delete(pending));
    },
    async started() {
      while (starting.size) await Promise.all(starting);
    },
    running() {
      return [...active.keys()];
    },
    async stop() {
      stopped = true;
      await Promise.all(starting);
      for (const [name, stop] of [...active].reverse()) {
        active.delete(name);
        try {
          await stop();
        } catch (error) {
          log('error', 'job_stop_failed', { job: name, error: message(error) });
        }
      }
    },
  };
}
