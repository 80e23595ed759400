/**
 * The intervals this process sets from now on and has not cleared, each with where it was set, so
 * that a test can say which job left one behind. Node does not list unref'd timers
 * (process.getActiveResourcesInfo), and the app unrefs its jobs' timers, hence the wrapper.
 */
export interface IntervalWatch {
  /** Where each interval still set was set (a stack each). */
  left(): string[];
  /** Puts the real setInterval and clearInterval back. */
  restore(): void;
}

export function watchIntervals(): IntervalWatch {
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  const live = new Map<unknown, string>();
  globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
    const timer = realSet(...args);
    live.set(timer, new Error('interval set').stack ?? '');
    return timer;
  }) as typeof setInterval;
  globalThis.clearInterval = ((timer?: Parameters<typeof clearInterval>[0]) => {
    live.delete(timer);
    realClear(timer);
  }) as typeof clearInterval;
  return {
    left: () => [...live.values()],
    restore() {
      globalThis.setInterval = realSet;
      globalThis.clearInterval = realClear;
    },
  };
}
