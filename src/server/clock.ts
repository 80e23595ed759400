/**
 * The server's "now": the system clock, or, with SUGU_CLOCK set, a clock that starts at that instant
 * when the process starts and runs on from there. Booking, cancelling, the fee, the slots, the
 * listing and the live marks take the time from here, so a browser test sees the app at the hour it
 * chose. Sessions, rate limits and mail delivery keep the system clock: they answer to the outside
 * world, and the database's own now().
 */
import { config } from './config';

let offsetMs: number | undefined;

export const clock = {
  /** The current instant as the server counts it. */
  now(): Date {
    offsetMs ??= (config().SUGU_CLOCK?.getTime() ?? Date.now()) - Date.now();
    return new Date(Date.now() + offsetMs);
  },
};
