/**
 * A clock that moves only when a test moves it, for anything that depends on the hour
 * (15-minute marks, the 05:00 business-day roll-over).
 *
 *   const clock = controlledClock('2026-11-20T20:07:00+09:00');
 *   const index = new AvailabilityIndex(source, { clock: clock.now });
 *   clock.advance(8); // minutes
 */
export interface ControlledClock {
  now(): Date;
  set(at: Date | string): void;
  advance(minutes: number): void;
}

export function controlledClock(start: Date | string): ControlledClock {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    set: (to) => void (at = new Date(to).getTime()),
    advance: (minutes) => void (at += minutes * 60_000),
  };
}
