import { addTokyoDays, businessDate, tokyoInstant } from '../../src/lib/datetime';

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

/**
 * 19:00 in Tokyo on the next business day: a server clock (SUGU_CLOCK) that reads the same hour
 * whenever the suite runs, with hours of the same business day before and after it. (A clock "three
 * hours from now" put bookings 20 minutes before it on the previous business day when the suite
 * ran near 02:00 in Tokyo, and the store's day list no longer held them.)
 */
export function eveningClock(minuteOfDay = 19 * 60): number {
  return tokyoInstant(addTokyoDays(businessDate(new Date()), 1), minuteOfDay).getTime();
}
