/**
 * A store's weekly hours, as staff set them. A change never cancels anyone: the bookings to come
 * that fall outside the new hours are listed in the answer for the store to handle (call, move or
 * cancel them with a reason). The availability index re-reads the store at once.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings, storeHours, stores } from '../db/schema';
import { isOpenFor, openingIntervals } from '../availability';
import { publishAvailabilityChange } from '../events';
import { clockMinutes, minutesClock, type HoursInput, type HoursJson } from '../../lib/contract/store';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { bookingsWhere } from './dayBookings';

async function readHours(q: Q, storeId: number) {
  return q
    .select({ weekday: storeHours.weekday, opensMin: storeHours.opensMin, closesMin: storeHours.closesMin })
    .from(storeHours)
    .where(eq(storeHours.storeId, storeId))
    .orderBy(asc(storeHours.weekday), asc(storeHours.opensMin));
}

const hoursJson = (rows: Awaited<ReturnType<typeof readHours>>) => rows.map((h) => ({ weekday: h.weekday, opens: minutesClock(h.opensMin), closes: minutesClock(h.closesMin) }));

export async function getHours(q: Q, storeId: number): Promise<HoursJson> {
  return { store_id: storeId, hours: hoursJson(await readHours(q, storeId)) };
}

/** Replaces the week's hours in one transaction, and lists the confirmed bookings to come now outside them. */
export async function setHours(db: Db, scope: StaffScope, input: HoursInput, now = new Date()): Promise<HoursJson> {
  const storeId = storeOf(scope, input.store_id);
  const rows = input.hours.map((h) => ({ storeId, weekday: h.weekday, opensMin: clockMinutes(h.opens), closesMin: clockMinutes(h.closes) }));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    await tx.delete(storeHours).where(eq(storeHours.storeId, storeId));
    if (rows.length) await tx.insert(storeHours).values(rows);
    await audit(tx, scope, { action: 'hours_set', storeId, detail: { hours: input.hours } });
  });
  await publishAvailabilityChange(db, [storeId]);
  const hours = await readHours(db, storeId);
  const coming = await bookingsWhere(db, and(eq(bookings.storeId, storeId), eq(bookings.status, 'confirmed'), gt(bookings.endsAt, now)), asc(bookings.startsAt));
  const outside = coming.filter(({ json }) => {
    const start = new Date(json.start);
    const end = new Date(json.end);
    return !isOpenFor(openingIntervals(hours, start, end), start, end);
  });
  return { store_id: storeId, hours: hoursJson(hours), outside_hours: outside.map((b) => b.json) };
}
