/**
 * What the app does when it stops (src/server/app.ts, from scripts/start.mjs on SIGTERM or SIGINT),
 * in two stages: `stop` as soon as the server refuses new connections (end the live streams, which
 * reconnect elsewhere), `close` once in-flight requests are answered. Modules that hold something
 * open for clients register here; the jobs and the database are the app's own to stop.
 */
import { reloadSafe } from './reloadSafe';

export type ShutdownStage = 'stop' | 'close';
type Step = () => Promise<void> | void;

// Across a module reload (npm run dev) the running app still finds the steps registered before it.
const steps = reloadSafe('shutdownSteps', (): Record<ShutdownStage, Set<Step>> => ({ stop: new Set(), close: new Set() }));

/** Registers a step to run when the app stops. */
export function onShutdown(stage: ShutdownStage, step: Step): void {
  steps[stage].add(step);
}

/** Runs a stage's steps one after another; a failing step is reported and the others still run. */
export async function runShutdown(stage: ShutdownStage, report: (error: unknown) => void): Promise<void> {
  for (const step of steps[stage]) {
    try {
      await step();
    } catch (error) {
      report(error);
    }
  }
}
