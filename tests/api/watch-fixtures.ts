/**
 * Watches at an hour the test chooses: the server's clock (SUGU_CLOCK) starts at a time of
 * tomorrow's business day, when the fixture stores (tests/api/booking-fixtures.ts) have no
 * bookings, so watch windows and freed starts never depend on the hour the tests run at. The
 * watches code takes "now" from that clock only (never the database's now()): mail delivery keeps
 * the system clock, which is behind it, and so sends at once.
 */
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';
import type { WatchAlert } from '../../src/lib/contract/watches';
import type { SseStream } from './live-sse';

/** Tomorrow's business day in Tokyo. */
export const watchDay = addTokyoDays(businessDate(new Date()), 1);

/** `hh:mm` of the watch day, as the API writes starts. */
export const onWatchDay = (hh: number, mm = 0) => toTokyoIso(tokyoInstant(watchDay, hh * 60 + mm));

/** The server environment whose clock starts at `hh:mm` of the watch day. */
export const watchClock = (hh: number, mm = 0) => ({ SUGU_CLOCK: tokyoInstant(watchDay, hh * 60 + mm).toISOString() });

/** The watch alerts a stream has received so far. */
export const alertsOf = (stream: SseStream): WatchAlert[] => stream.events.filter((e) => e.event === 'watch').map((e) => JSON.parse(e.data) as WatchAlert);

/** Waits for the stream's `n`-th watch alert (1-based). */
export const nthAlert = (stream: SseStream, n: number): Promise<WatchAlert> => stream.until(() => alertsOf(stream)[n - 1], `watch alert #${n}`);
