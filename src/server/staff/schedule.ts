/**
 * A store's opening schedule as staff change it: the weekly hours and the one-off days
 * (臨時休業, changed hours), read fresh (never from a cache), and the confirmed bookings to come
 * that fall outside it. A change of schedule never cancels anyone: those bookings are listed for
 * the store to handle.
 */
import { and, asc, eq, gt, gte } from 'drizzle-orm';
import type { Q } from '../db/types';
import { bookings, storeClosures, storeHours } from '../db/schema';
import { addTokyoDays, tokyoParts } from '../../lib/datetime';
import { closureOverride, isOpenFor, openingIntervals, type DayOverride, type WeeklyHours } from '../availability';
import type { StoreBookingJson } from '../../lib/contract/staff';
import { bookingsWhere } from './dayBookings';
import { clock } from '../clock';

export interface Schedule {
  hours: WeeklyHours[];
  overrides: DayOverride[];
}

export async function readSchedule(q: Q, storeId: number, now = clock.now()): Promise<Schedule> {
  // A night that began two days ago may still be open.
  const since = addTokyoDays(tokyoParts(now).date, -2);
  const [hours, closures] = await Promise.all([
    q
      .select({ weekday: storeHours.weekday, opensMin: storeHours.opensMin, closesMin: storeHours.closesMin })
      .from(storeHours)
      .where(eq(storeHours.storeId, storeId)),
    q
      .select({ date: storeClosures.date, hours: storeClosures.hours })
      .from(storeClosures)
      .where(and(eq(storeClosures.storeId, storeId), gte(storeClosures.date, since))),
  ]);
  return { hours, overrides: closures.map((c) => closureOverride(c.date, c.hours)) };
}

/** True when the store is open for the whole of [start, end). */
export const openThroughout = (s: Schedule, start: Date, end: Date) => isOpenFor(openingIntervals(s.hours, start, end, s.overrides), start, end);

/** The confirmed bookings not yet over that the schedule no longer covers, earliest first. */
export async function bookingsOutside(q: Q, storeId: number, now: Date): Promise<StoreBookingJson[]> {
  const schedule = await readSchedule(q, storeId, now);
  const coming = await bookingsWhere(q, and(eq(bookings.storeId, storeId), eq(bookings.status, 'confirmed'), gt(bookings.endsAt, now)), asc(bookings.startsAt));
  return coming.map((b) => b.json).filter((b) => !openThroughout(schedule, new Date(b.start), new Date(b.end)));
}
