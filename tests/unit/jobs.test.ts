import { describe, expect, it } from 'vitest';
import { createJobs } from '../../src/server/jobs';
import { watchIntervals } from '../helpers/intervals';

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the background job registry (src/server/jobs.ts)', () => {
  it('runs a periodic job at once, and its stop waits for the run in progress and clears its timer', async () => {
    const jobs = createJobs();
    const intervals = watchIntervals();
    const run = deferred();
    let runs = 0;
    let finished = false;
    jobs.every('sweep', 3_600_000, 'sweep_failed', async () => {
      runs++;
      await run.promise;
      finished = true;
    });
    expect(runs).toBe(1);
    expect(jobs.running()).toEqual(['sweep']);
    expect(intervals.left()).toHaveLength(1);
    const stopped = jobs.stop();
    run.resolve();
    await stopped;
    expect(finished).toBe(true);
    expect(jobs.running()).toEqual([]);
    expect(intervals.left()).toEqual([]);
    intervals.restore();
  });

  it('stops the jobs the last started first', async () => {
    const jobs = createJobs();
    const order: string[] = [];
    for (const name of ['first', 'second', 'third']) jobs.start(name, 'failed', async () => () => void order.push(name));
    await jobs.started();
    expect(jobs.running()).toEqual(['first', 'second', 'third']);
    await jobs.stop();
    expect(order).toEqual(['third', 'second', 'first']);
  });

  it('stops a job still starting as soon as it has started, and starts none after a stop', async () => {
    const jobs = createJobs();
    const begun = deferred<() => void>();
    let stopped = false;
    jobs.start('worker', 'failed', () => begun.promise);
    const stopping = jobs.stop();
    begun.resolve(() => void (stopped = true));
    await stopping;
    expect(stopped).toBe(true);
    expect(jobs.running()).toEqual([]);
    let ran = false;
    jobs.every('late', 1_000, 'failed', async () => void (ran = true));
    jobs.start('late worker', 'failed', async () => () => {});
    await jobs.started();
    expect(ran).toBe(false);
    expect(jobs.running()).toEqual([]);
  });

  it('keeps the others running when a job fails to start, and lists only what runs', async () => {
    const jobs = createJobs();
    jobs.start('broken', 'broken_failed', async () => {
      throw new Error('no transport');
    });
    jobs.start('nothing to do', 'failed', async () => undefined);
    jobs.start('worker', 'failed', async () => () => {});
    await jobs.started();
    expect(jobs.running()).toEqual(['worker']);
    await jobs.stop();
  });
});
