/**
 * Walk-ins: a party seated at the door without booking. Like a block, a walk-in is a row of
 * `bookings` (kind `walk_in`, with its party size and an optional name), so the exclusion
 * constraint keeps it off tables that are booked, the availability index and every instance's
 * live streams count its table as held at once, and it is decided under the store's row lock like
 * a booking. It holds its table from the minute it is seated for the party's turn time (the
 * store's for that party size), to the next 15-minute mark so a diner can book the table at that
 * mark, and never past closing: a party seated late stays until the store closes. "Table free
 * again" ends it at the minute the party leaves, and the table is bookable again at once.
 */
import { and, asc, eq, gt, inArray, lt, type SQL } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings, storeTables } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import {
  businessDayRange,
  freeTablesFor,
  fitsSize,
  loadStoreStates,
  openingIntervals,
  smallestFit,
  stayFor,
  SLOT_STEP_MIN,
  type StoreState,
  type TableInfo,
} from '../availability';
import { lockAndLoad, newBookingCode, pgError } from '../bookings/rules';
import { publishAvailabilityChange } from '../events';
import { MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import type { WalkInInput, WalkInJson, WalkInSuggestion } from '../../lib/contract/staff';
import type { Translate } from '../../lib/contract/messages';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { clock } from '../clock';

const columns = {
  id: bookings.id,
  storeId: bookings.storeId,
  tableId: storeTables.id,
  tableLabel: storeTables.label,
  tableKind: storeTables.kind,
  partySize: bookings.partySize,
  name: bookings.guestName,
  start: bookings.startsAt,
  end: bookings.endsAt,
  status: bookings.status,
  createdAt: bookings.createdAt,
  updatedAt: bookings.updatedAt,
};
const select = (q: Q) => q.select(columns).from(bookings).innerJoin(storeTables, eq(storeTables.id, bookings.tableId));

function toJson(r: Awaited<ReturnType<typeof select>>[number]): WalkInJson {
  return {
    id: r.id,
    store_id: r.storeId,
    table: { id: r.tableId, label: r.tableLabel, kind: r.tableKind },
    party_size: r.partySize,
    name: r.name ?? '',
    start: toTokyoIso(r.start),
    // A walk-in freed in the minute it was seated never held its table.
    end: toTokyoIso(r.status === 'cancelled' ? r.start : r.end),
    created_at: toTokyoIso(r.createdAt),
    updated_at: toTokyoIso(r.updatedAt),
  };
}

const MARK_MS = SLOT_STEP_MIN * MINUTE_MS;
const floorMinute = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
const ceilMinute = (at: Date) => new Date(Math.ceil(at.getTime() / MINUTE_MS) * MINUTE_MS);

/**
 * The stay of a party seated at `now`: from this minute for its turn time, to the next 15-minute
 * mark, cut at closing; null when the store is closed now.
 */
export function walkInStay(state: StoreState, party: number, now: Date): { start: Date; end: Date } | null {
  const start = floorMinute(now);
  const turnEnd = new Date(Math.ceil((start.getTime() + stayFor(state, party) * MINUTE_MS) / MARK_MS) * MARK_MS);
  const open = openingIntervals(state.hours, start, turnEnd, state.overrides).find((i) => i.start <= start && start < i.end);
  if (!open) return null;
  return { start, end: turnEnd > open.end ? open.end : turnEnd };
}

/**
 * The table a walk-in gets when staff name none: a walk-in-only table first (those are kept for
 * the door), then the smallest free one that fits, the bookings' own rule.
 */
export function suggestTable(state: StoreState, party: number, start: Date, end: Date): TableInfo | null {
  const free = freeTablesFor(state.tables, state.busy, start, end, party, true);
  return smallestFit(free.filter((t) => !t.online)) ?? smallestFit(free);
}

const fieldError = (t: Translate, status: number, code: 'validation_failed' | 'not_found' | 'table_held', field: string, key: string) =>
  new ApiError(status, code, code === 'validation_failed' ? 'validation.failed' : code === 'not_found' ? 'api.error.notFound' : 'store.error.tableHeld', {
    fields: { [field]: t(key) },
  });

/** The table a party of `party` seated now would get (null when none fits or the store is closed), and the stay. */
export async function walkInChoice(
  db: Db,
  storeId: number,
  party: number,
  now = clock.now(),
): Promise<{ table: TableInfo | null; stay: { start: Date; end: Date } | null }> {
  const from = floorMinute(now);
  const state = (await loadStoreStates(db, [storeId], from, new Date(from.getTime() + 12 * 60 * MINUTE_MS))).get(storeId);
  const stay = state ? walkInStay(state, party, now) : null;
  return { table: state && stay ? suggestTable(state, party, stay.start, stay.end) : null, stay };
}

/** What a walk-in of `party` would get now at the store: the table and its stay, or no table. */
export async function suggestWalkIn(db: Db, storeId: number, party: number, now = clock.now()): Promise<WalkInSuggestion> {
  const { table, stay } = await walkInChoice(db, storeId, party, now);
  return {
    store_id: storeId,
    party_size: party,
    table: table
      ? { id: table.id, label: await tableLabel(db, table.id), kind: table.kind, min_party: table.minParty, max_party: table.maxParty, online: table.online }
      : null,
    start: table && stay ? toTokyoIso(stay.start) : null,
    end: table && stay ? toTokyoIso(stay.end) : null,
  };
}

async function tableLabel(q: Q, id: number): Promise<string> {
  const [row] = await q.select({ label: storeTables.label }).from(storeTables).where(eq(storeTables.id, id));
  return row?.label ?? '';
}

/**
 * Seats a walk-in now: at the table named (404 when the store has none such, 400 when it does not
 * fit the party, 409 `table_held` when it is taken) or at the suggested one (409 `no_free_table`
 * when none fits and is free, or the store is closed).
 */
export async function seatWalkIn(db: Db, t: Translate, scope: StaffScope, input: WalkInInput, now = clock.now()): Promise<WalkInJson> {
  const storeId = storeOf(scope, input.store_id);
  const party = input.party_size;
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const state = await lockAndLoad(tx, storeId, floorMinute(now), { now });
      if (!state) throw notFound();
      const stay = walkInStay(state, party, now);
      if (!stay) throw new ApiError(409, 'no_free_table', 'store.error.walkInClosed');
      let table: TableInfo | null;
      if (input.table_id !== undefined) {
        table = state.tables.find((x) => x.id === input.table_id) ?? null;
        if (!table) throw fieldError(t, 404, 'not_found', 'table_id', 'store.error.tableUnknown');
        if (!fitsSize(table, party)) throw fieldError(t, 400, 'validation_failed', 'table_id', 'store.error.tableSize');
        if (!freeTablesFor([table], state.busy, stay.start, stay.end, party, true).length)
          throw fieldError(t, 409, 'table_held', 'table_id', 'store.error.tableHeld');
      } else {
        table = suggestTable(state, party, stay.start, stay.end);
        if (!table) throw new ApiError(409, 'no_free_table', 'store.error.walkInNoTable');
      }
      const name = input.name?.trim() ?? '';
      const [row] = await tx
        .insert(bookings)
        .values({
          kind: 'walk_in',
          code: newBookingCode(),
          storeId,
          tableId: table.id,
          partySize: party,
          startsAt: stay.start,
          endsAt: stay.end,
          guestName: name || null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: bookings.id });
      const after = { table_id: table.id, party_size: party, name, start: toTokyoIso(stay.start), end: toTokyoIso(stay.end), status: 'confirmed' };
      await audit(tx, scope, { action: 'walk_in_seat', storeId, targetId: row!.id, detail: { table_id: table.id, party_size: party }, before: null, after });
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

/**
 * "Table free again": the party left, its walk-in ends this minute and the table is bookable at
 * once. A walk-in already over is left as it is (freeing twice is harmless); another store's is
 * not found.
 */
export async function freeWalkIn(db: Db, scope: StaffScope, id: number, now = clock.now()): Promise<WalkInJson> {
  const storeId = await db.transaction(async (tx) => {
    const [w] = await tx
      .select({ storeId: bookings.storeId, start: bookings.startsAt, end: bookings.endsAt, status: bookings.status })
      .from(bookings)
      .where(and(eq(bookings.id, id), eq(bookings.kind, 'walk_in'), inArray(bookings.storeId, scope.storeIds)))
      .for('update');
    if (!w) throw notFound();
    const end = ceilMinute(now);
    if (w.status !== 'confirmed' || w.end.getTime() <= end.getTime()) return null;
    // Shortening a hold never collides with another; freed in the minute it began, it never held the table.
    const set = end.getTime() <= w.start.getTime() ? { status: 'cancelled' as const, cancelledAt: now, updatedAt: now } : { endsAt: end, updatedAt: now };
    await tx.update(bookings).set(set).where(eq(bookings.id, id));
    const before = { end: toTokyoIso(w.end), status: w.status };
    const after = 'endsAt' in set ? { end: toTokyoIso(end), status: 'confirmed' } : { end: toTokyoIso(w.start), status: 'cancelled' };
    await audit(tx, scope, { action: 'walk_in_free', storeId: w.storeId, targetId: id, before, after });
    return w.storeId;
  });
  if (storeId !== null) await publishAvailabilityChange(db, [storeId]);
  const [row] = await select(db).where(eq(bookings.id, id));
  return toJson(row!);
}

/** Walk-ins (freed ones included) matching `where`, in `order`, with the instant of their last change: the store stream's `walk_in` events. */
export async function walkInsWhere(q: Q, where: SQL | undefined, order: SQL): Promise<{ json: WalkInJson; changedAt: Date }[]> {
  const rows = await select(q)
    .where(and(eq(bookings.kind, 'walk_in'), where))
    .orderBy(order);
  return rows.map((r) => ({ json: toJson(r), changedAt: r.updatedAt }));
}

/** The walk-ins of a store that touch business day `date`, earliest first (those freed in the minute they began left out). */
export async function listWalkIns(q: Q, storeId: number, date: string): Promise<WalkInJson[]> {
  const { start, end } = businessDayRange(date);
  const rows = await select(q)
    .where(
      and(
        eq(bookings.storeId, storeId),
        eq(bookings.kind, 'walk_in'),
        eq(bookings.status, 'confirmed'),
        lt(bookings.startsAt, end),
        gt(bookings.endsAt, start),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id));
  return rows.map(toJson);
}
