/**
 * A store's weekly hours, as staff set them. A change never cancels anyone: the bookings to come
 * that fall outside the new hours are listed in the answer for the store to handle (call, move or
 * cancel them with a reason). The availability index re-reads the store at once.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { storeHours, stores } from '../db/schema';
import { publishAvailabilityChange } from '../events';
import { clockMinutes, minutesClock, type HoursInput, type HoursJson, type WeekdayHoursInput } from '../../lib/contract/staff';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { bookingsOutside } from './schedule';
import { clock } from '../clock';

async function readHours(q: Q, storeId: number) {
  return q
    .select({ weekday: storeHours.weekday, opensMin: storeHours.opensMin, closesMin: storeHours.closesMin })
    .from(storeHours)
    .where(eq(storeHours.storeId, storeId))
    .orderBy(asc(storeHours.weekday), asc(storeHours.opensMin));
}

const hoursJson = (rows: Awaited<ReturnType<typeof readHours>>) =>
  rows.map((h) => ({ weekday: h.weekday, opens: minutesClock(h.opensMin), closes: minutesClock(h.closesMin) }));

export async function getHours(q: Q, storeId: number): Promise<HoursJson> {
  return { store_id: storeId, hours: hoursJson(await readHours(q, storeId)) };
}

/** Replaces the week's hours in one transaction, and lists the confirmed bookings to come now outside the hours (one-off days included). */
export async function setHours(db: Db, scope: StaffScope, input: HoursInput, now = clock.now()): Promise<HoursJson> {
  const storeId = storeOf(scope, input.store_id);
  const rows = input.hours.map((h) => ({ storeId, weekday: h.weekday, opensMin: clockMinutes(h.opens), closesMin: clockMinutes(h.closes) }));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const before = hoursJson(await readHours(tx, storeId));
    await tx.delete(storeHours).where(eq(storeHours.storeId, storeId));
    if (rows.length) await tx.insert(storeHours).values(rows);
    await audit(tx, scope, {
      action: 'hours_set',
      storeId,
      detail: { hours: input.hours },
      before: { hours: before },
      after: { hours: hoursJson(await readHours(tx, storeId)) },
    });
  });
  await publishAvailabilityChange(db, [storeId]);
  const hours = await readHours(db, storeId);
  return { store_id: storeId, hours: hoursJson(hours), outside_hours: await bookingsOutside(db, storeId, now) };
}

/**
 * Replaces one weekday's openings (0 = Sunday … 6 = Saturday; none: closed that day), leaving the
 * other days as they are, and lists the confirmed bookings to come now outside the hours.
 */
export async function setWeekdayHours(db: Db, scope: StaffScope, weekday: number, input: WeekdayHoursInput, now = clock.now()): Promise<HoursJson> {
  const storeId = storeOf(scope, input.store_id);
  const rows = input.hours.map((h) => ({ storeId, weekday, opensMin: clockMinutes(h.opens), closesMin: clockMinutes(h.closes) }));
  const ofDay = (hours: HoursJson['hours']) => hours.filter((h) => h.weekday === weekday);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const before = hoursJson(await readHours(tx, storeId));
    await tx.delete(storeHours).where(and(eq(storeHours.storeId, storeId), eq(storeHours.weekday, weekday)));
    if (rows.length) await tx.insert(storeHours).values(rows);
    const after = hoursJson(await readHours(tx, storeId));
    await audit(tx, scope, {
      action: 'hours_set',
      storeId,
      detail: { weekday, hours: input.hours },
      before: { hours: ofDay(before) },
      after: { hours: ofDay(after) },
    });
  });
  await publishAvailabilityChange(db, [storeId]);
  return { store_id: storeId, hours: hoursJson(await readHours(db, storeId)), outside_hours: await bookingsOutside(db, storeId, now) };
}
