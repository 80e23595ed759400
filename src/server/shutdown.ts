/**
 * What the process does when it stops (scripts/start.mjs, on SIGTERM or SIGINT), in two stages:
 * `stop` as soon as the server refuses new connections (end the live streams, which reconnect
 * elsewhere), `close` once in-flight requests are answered (the database, releasing DATA_DIR).
 *
 * The steps are kept under a global symbol because the built server and scripts/start.mjs each
 * load their own copy of this module; both read the one registry. Plain TypeScript that Node runs
 * without a build (start.mjs imports it directly).
 */
export type ShutdownStage = 'stop' | 'close';
type Step = () => Promise<void> | void;

const KEY = Symbol.for('sugu.shutdown');
const holder = globalThis as unknown as Record<symbol, Record<ShutdownStage, Set<Step>> | undefined>;
const steps = (holder[KEY] ??= { stop: new Set(), close: new Set() });

/** Registers a step to run when the process stops. */
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
