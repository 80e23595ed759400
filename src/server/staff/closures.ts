/**
 * One-off days (臨時休業 or changed hours): a store closes a business day (05:00 to 05:00, its
 * hours after midnight included), or opens other hours on it, from today to the last bookable day. Set and removed in one transaction with its audit line,
 * then announced like any availability change, so the index, the diners' pages and streams and
 * the booking transaction of every instance follow. Bookings already made are never cancelled:
 * the answer lists those now outside the hours for the store to handle.
 */
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { storeClosures, stores } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { bookableDates, businessDate } from '../availability';
import { publishAvailabilityChange } from '../events';
import { toTokyoIso } from '../../lib/datetime';
import { clockMinutes, minutesClock, type ClosureChangeJson, type ClosureInput, type ClosureJson } from '../../lib/contract/staff';
import type { Translate } from '../../lib/contract/messages';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { bookingsOutside } from './schedule';
import { clock } from '../clock';

type Row = typeof storeClosures.$inferSelect;

const toJson = (r: Row): ClosureJson => ({
  id: r.id,
  store_id: r.storeId,
  date: r.date,
  closed: r.hours.length === 0,
  hours: r.hours.map(([opens, closes]) => ({ opens: minutesClock(opens), closes: minutesClock(closes) })),
  note: r.note,
  updated_at: toTokyoIso(r.updatedAt),
});

/** A one-off day as the audit keeps it. */
const auditState = (r: Row) => {
  const { date, hours, note } = toJson(r);
  return { date, hours, note };
};

/** The store's one-off days from today's business day on, earliest first. */
export async function listClosures(q: Q, storeId: number, now = clock.now()): Promise<ClosureJson[]> {
  const rows = await q
    .select()
    .from(storeClosures)
    .where(and(eq(storeClosures.storeId, storeId), gte(storeClosures.date, businessDate(now))))
    .orderBy(asc(storeClosures.date));
  return rows.map(toJson);
}

/** Closes a day or changes its hours (replacing what was set for it); refused, naming `date`, outside today … the last bookable day. */
export async function setClosure(db: Db, t: Translate, scope: StaffScope, input: ClosureInput, now = clock.now()): Promise<ClosureChangeJson> {
  const storeId = storeOf(scope, input.store_id);
  const days = bookableDates(now);
  if (!days.includes(input.date)) {
    const key = input.date < days[0]! ? 'store.error.closurePast' : 'store.error.closureTooFar';
    throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { date: t(key) } });
  }
  const hours = input.hours.map((h): [number, number] => [clockMinutes(h.opens), clockMinutes(h.closes)]).sort((a, b) => a[0] - b[0]);
  const values = { storeId, date: input.date, hours, note: input.note?.trim() ?? '', updatedAt: now };
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const [old] = await tx
      .select()
      .from(storeClosures)
      .where(and(eq(storeClosures.storeId, storeId), eq(storeClosures.date, input.date)));
    const [saved] = await tx
      .insert(storeClosures)
      .values(values)
      .onConflictDoUpdate({ target: [storeClosures.storeId, storeClosures.date], set: { hours: values.hours, note: values.note, updatedAt: now } })
      .returning();
    await audit(tx, scope, {
      action: 'closure_set',
      storeId,
      targetId: saved!.id,
      detail: { date: input.date, hours: input.hours },
      before: old ? auditState(old) : null,
      after: auditState(saved!),
    });
    return saved!;
  });
  await publishAvailabilityChange(db, [storeId]);
  return { store_id: storeId, date: row.date, closure: toJson(row), outside_hours: await bookingsOutside(db, storeId, now) };
}

/** Gives a day back its weekly hours; another store's day is not found. */
export async function removeClosure(db: Db, scope: StaffScope, id: number, now = clock.now()): Promise<ClosureChangeJson> {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(storeClosures)
      .where(and(eq(storeClosures.id, id), inArray(storeClosures.storeId, scope.storeIds)))
      .returning();
    if (row)
      await audit(tx, scope, {
        action: 'closure_remove',
        storeId: row.storeId,
        targetId: id,
        detail: { date: row.date },
        before: auditState(row),
        after: null,
      });
    return row;
  });
  if (!removed) throw notFound();
  await publishAvailabilityChange(db, [removed.storeId]);
  // Longer hours given back to the week's may leave bookings made for them outside.
  return { store_id: removed.storeId, date: removed.date, closure: null, outside_hours: await bookingsOutside(db, removed.storeId, now) };
}
