/**
 * Blocks: the store holding one of its tables for a period (a walk-in, a private event) and giving
 * it back. A block is a row of `bookings` (kind `block`), so the exclusion constraint that keeps two
 * bookings off one table keeps blocks and bookings apart too, and the availability index counts it
 * as held like any booking. Like a booking, it is decided under the store's row lock.
 */
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings, stores, storeTables } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { businessDayRange, SLOT_STEP_MIN } from '../availability';
import { newBookingCode, pgError } from '../bookings/rules';
import { publishAvailabilityChange } from '../events';
import { MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import type { BlockInput, BlockJson } from '../../lib/contract/staff';
import type { Translate } from '../../lib/contract/messages';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { openThroughout, readSchedule } from './schedule';
import { clock } from '../clock';

/** A block lasts at most a day; longer closures are the store's hours (closed days). */
export const BLOCK_MAX_MINUTES = 24 * 60;

const fieldError = (t: Translate, status: number, code: 'validation_failed' | 'not_found' | 'table_held', field: string, key: string) =>
  new ApiError(status, code, code === 'validation_failed' ? 'validation.failed' : code === 'not_found' ? 'api.error.notFound' : 'store.error.tableHeld', {
    fields: { [field]: t(key) },
  });

const columns = {
  id: bookings.id,
  storeId: bookings.storeId,
  tableId: storeTables.id,
  tableLabel: storeTables.label,
  tableKind: storeTables.kind,
  start: bookings.startsAt,
  end: bookings.endsAt,
  reason: bookings.note,
  createdAt: bookings.createdAt,
  status: bookings.status,
  cancelledAt: bookings.cancelledAt,
};
const select = (q: Q) => q.select(columns).from(bookings).innerJoin(storeTables, eq(storeTables.id, bookings.tableId));

function toJson(r: Awaited<ReturnType<typeof select>>[number]): BlockJson {
  return {
    id: r.id,
    store_id: r.storeId,
    table: { id: r.tableId, label: r.tableLabel, kind: r.tableKind },
    start: toTokyoIso(r.start),
    end: toTokyoIso(r.end),
    reason: r.reason,
    created_at: toTokyoIso(r.createdAt),
    released_at: r.status === 'cancelled' && r.cancelledAt ? toTokyoIso(r.cancelledAt) : null,
  };
}

/** The blocks of a store that touch business day `date`, released ones included, earliest first. */
export async function listBlocks(q: Q, storeId: number, date: string): Promise<BlockJson[]> {
  const { start, end } = businessDayRange(date);
  const rows = await select(q)
    .where(and(eq(bookings.storeId, storeId), eq(bookings.kind, 'block'), lt(bookings.startsAt, end), gt(bookings.endsAt, start)))
    .orderBy(asc(bookings.startsAt), asc(bookings.id));
  return rows.map(toJson);
}

/**
 * Holds a table: refused with the field named when it is too long, already over, outside the
 * store's hours, a table the store does not have (404), or held then by a booking or a block (409).
 */
export async function createBlock(db: Db, t: Translate, scope: StaffScope, input: BlockInput, now = clock.now()): Promise<BlockJson> {
  const storeId = storeOf(scope, input.store_id);
  const start = new Date(input.start);
  const end = new Date(input.end);
  if (end.getTime() - start.getTime() > BLOCK_MAX_MINUTES * MINUTE_MS) throw fieldError(t, 400, 'validation_failed', 'end', 'store.error.blockTooLong');
  // A block for a walk-in starts at the 15-minute mark just past.
  if (start.getTime() < now.getTime() - SLOT_STEP_MIN * MINUTE_MS) throw fieldError(t, 400, 'validation_failed', 'start', 'store.error.blockPast');
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
      const [table] = await tx
        .select({ id: storeTables.id, maxParty: storeTables.maxParty })
        .from(storeTables)
        .where(and(eq(storeTables.id, input.table_id), eq(storeTables.storeId, storeId)));
      if (!table) throw fieldError(t, 404, 'not_found', 'table_id', 'store.error.tableUnknown');
      if (!openThroughout(await readSchedule(tx, storeId, now), start, end)) throw fieldError(t, 400, 'validation_failed', 'start', 'store.error.blockClosed');
      const [row] = await tx
        .insert(bookings)
        .values({
          kind: 'block',
          code: newBookingCode(),
          storeId,
          tableId: table.id,
          partySize: table.maxParty,
          startsAt: start,
          endsAt: end,
          note: input.reason?.trim() ?? '',
        })
        .returning({ id: bookings.id });
      const after = { table_id: table.id, start: toTokyoIso(start), end: toTokyoIso(end), status: 'confirmed' };
      await audit(tx, scope, {
        action: 'block_create',
        storeId,
        targetId: row!.id,
        detail: { table_id: table.id, start: after.start, end: after.end },
        before: null,
        after,
      });
      return row!.id;
    });
  } catch (err) {
    if (pgError(err).code === '23P01') throw fieldError(t, 409, 'table_held', 'table_id', 'store.error.tableHeld');
    throw err;
  }
  await publishAvailabilityChange(db, [storeId]);
  const [row] = await select(db).where(eq(bookings.id, id));
  return toJson(row!);
}

/** Gives a blocked table back; releasing twice is harmless. Another store's block is not found. */
export async function releaseBlock(db: Db, scope: StaffScope, id: number, now = clock.now()): Promise<void> {
  const released = await db.transaction(async (tx) => {
    const rows = await tx
      .update(bookings)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(and(eq(bookings.id, id), eq(bookings.kind, 'block'), eq(bookings.status, 'confirmed'), inArray(bookings.storeId, scope.storeIds)))
      .returning({ storeId: bookings.storeId });
    if (rows[0])
      await audit(tx, scope, {
        action: 'block_release',
        storeId: rows[0].storeId,
        targetId: id,
        before: { status: 'confirmed' },
        after: { status: 'cancelled' },
      });
    return rows[0] ?? null;
  });
  if (released) {
    await publishAvailabilityChange(db, [released.storeId]);
    return;
  }
  const [known] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.kind, 'block'), inArray(bookings.storeId, scope.storeIds)));
  if (!known) throw notFound();
}
