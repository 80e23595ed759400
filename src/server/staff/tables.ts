/**
 * The store's tables and turn times as staff see and set them: tables added, changed (label, kind,
 * who they seat) and removed while nothing was ever booked at them; a table online-bookable or walk-in
 * only (never offered to diners nor booked online; staff can still block it), and how long a party
 * keeps its table, per party size with the store's default for the others. Each change is audited
 * in its transaction and announced like any availability change, so the index, the diners' slots
 * and streams and the booking transaction of every instance follow.
 */
import { and, asc, count, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookings, stores, storeTables } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import { clock } from '../clock';
import type { Translate } from '../../lib/contract/messages';
import type { StoreTableJson, StoreTablesJson, TableCreateInput, TableSettingsInput, TurnTimesInput } from '../../lib/contract/staff';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';

const tableColumns = {
  id: storeTables.id,
  label: storeTables.label,
  kind: storeTables.kind,
  min_party: storeTables.minParty,
  max_party: storeTables.maxParty,
  online: storeTables.online,
};

export async function listTables(q: Q, storeId: number): Promise<StoreTablesJson> {
  const [[store], items] = await Promise.all([
    q.select({ stayMinutes: stores.stayMinutes, turnTimes: stores.turnTimes }).from(stores).where(eq(stores.id, storeId)),
    q.select(tableColumns).from(storeTables).where(eq(storeTables.storeId, storeId)).orderBy(asc(storeTables.id)),
  ]);
  return {
    store_id: storeId,
    stay_minutes: store?.stayMinutes ?? 0,
    turn_times: (store?.turnTimes ?? []).map(([party_size, minutes]) => ({ party_size, minutes })),
    items,
  };
}

/** One of the staff's tables with its store, or null when it is not one of theirs. */
export async function tableOf(q: Q, scope: StaffScope, id: number): Promise<(StoreTableJson & { storeId: number }) | null> {
  const [row] = await q
    .select({ storeId: storeTables.storeId, ...tableColumns })
    .from(storeTables)
    .where(and(eq(storeTables.id, id), inArray(storeTables.storeId, scope.storeIds)));
  return row ?? null;
}

const labelTaken = (t: Translate) => new ApiError(400, 'validation_failed', 'validation.failed', { fields: { label: t('store.error.tableLabelTaken') } });

/** True when another table of the store already goes by `label` (spaces around it and letter case aside). */
async function labelInUse(q: Q, storeId: number, label: string, except?: number): Promise<boolean> {
  const [hit] = await q
    .select({ id: storeTables.id })
    .from(storeTables)
    .where(
      and(eq(storeTables.storeId, storeId), sql`lower(btrim(${storeTables.label})) = lower(${label.trim()})`, ...(except ? [ne(storeTables.id, except)] : [])),
    )
    .limit(1);
  return hit !== undefined;
}

/** Locks the store's row: two staff naming two new tables alike cannot both pass the label check. */
const lockStore = (q: Q, storeId: number) => q.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);

/**
 * Locks one of the staff's tables after its store, in the order every booking takes them (the
 * store's row, then its tables): the checks below then see every booking at the table.
 */
async function lockTable(q: Q, scope: StaffScope, id: number) {
  const found = await tableOf(q, scope, id);
  if (!found) return null;
  await lockStore(q, found.storeId);
  const [row] = await q
    .select({ storeId: storeTables.storeId, ...tableColumns })
    .from(storeTables)
    .where(eq(storeTables.id, id))
    .for('update');
  return row ?? null;
}

/** Adds a table to one of the staff's stores; it is offered to diners at once unless walk-in only. */
export async function addTable(db: Db, t: Translate, scope: StaffScope, input: TableCreateInput): Promise<StoreTableJson> {
  const storeId = storeOf(scope, input.store_id);
  const values = { label: input.label.trim(), kind: input.kind, minParty: input.min_party, maxParty: input.max_party, online: input.online ?? true };
  const table = await db.transaction(async (tx) => {
    await lockStore(tx, storeId);
    if (await labelInUse(tx, storeId, values.label)) throw labelTaken(t);
    const [row] = await tx
      .insert(storeTables)
      .values({ storeId, ...values })
      .returning(tableColumns);
    await audit(tx, scope, { action: 'table_create', storeId, targetId: row!.id, detail: { label: row!.label }, before: null, after: tableState(row!) });
    return row!;
  });
  await publishAvailabilityChange(db, [storeId]);
  return table;
}

const tableState = (r: StoreTableJson) => ({ label: r.label, kind: r.kind, min_party: r.min_party, max_party: r.max_party, online: r.online });

/** The confirmed bookings and walk-ins at a table that have not ended yet (blocks hold no party). */
const stillToCome = (id: number, now: Date) => and(eq(bookings.tableId, id), eq(bookings.status, 'confirmed'), gt(bookings.endsAt, now));

/**
 * Changes a table's label, kind, party range or online flag; another store's table is not found. A
 * range that would leave out a party still to come at the table is refused: staff move it first.
 */
export async function setTable(db: Db, t: Translate, scope: StaffScope, id: number, input: TableSettingsInput): Promise<StoreTableJson> {
  const row = await db.transaction(async (tx) => {
    const old = await lockTable(tx, scope, id);
    if (!old) return null;
    const next = {
      label: input.label?.trim() ?? old.label,
      kind: input.kind ?? old.kind,
      min_party: input.min_party ?? old.min_party,
      max_party: input.max_party ?? old.max_party,
      online: input.online ?? old.online,
    };
    if (next.max_party < next.min_party) {
      const field = input.max_party !== undefined ? 'max_party' : 'min_party';
      throw new ApiError(400, 'validation_failed', 'validation.failed', { fields: { [field]: t('store.validation.partyRange') } });
    }
    if (next.label !== old.label) {
      if (await labelInUse(tx, old.storeId, next.label, id)) throw labelTaken(t);
    }
    if (next.min_party > old.min_party || next.max_party < old.max_party) {
      const [{ n }] = (await tx
        .select({ n: count() })
        .from(bookings)
        .where(
          and(
            stillToCome(id, clock.now()),
            ne(bookings.kind, 'block'),
            sql`(${bookings.partySize} < ${next.min_party} or ${bookings.partySize} > ${next.max_party})`,
          ),
        )) as [{ n: number }];
      if (n > 0) {
        const message = t('store.error.tableRangeInUse', { count: n });
        throw new ApiError(409, 'table_in_use', 'store.error.tableRangeInUse', {
          params: { count: n },
          fields: { [next.max_party < old.max_party ? 'max_party' : 'min_party']: message },
        });
      }
    }
    const [changed] = await tx
      .update(storeTables)
      .set({ label: next.label, kind: next.kind, minParty: next.min_party, maxParty: next.max_party, online: next.online })
      .where(eq(storeTables.id, id))
      .returning(tableColumns);
    const { storeId, ...before } = old;
    await audit(tx, scope, { action: 'table_set', storeId, targetId: id, detail: input, before: tableState(before), after: tableState(changed!) });
    return { storeId, table: changed! };
  });
  if (!row) throw notFound();
  await publishAvailabilityChange(db, [row.storeId]);
  return row.table;
}

/**
 * Removes a table that nothing was ever booked at (one added by mistake). A table with bookings,
 * walk-ins or blocks on record is kept, since they would go with it: one still to come is named as
 * such, and for one with only history the way out is to make it walk-in only.
 */
export async function removeTable(db: Db, scope: StaffScope, id: number): Promise<void> {
  const storeId = await db.transaction(async (tx) => {
    const old = await lockTable(tx, scope, id);
    if (!old) return null;
    const [{ ahead }] = (await tx.select({ ahead: count() }).from(bookings).where(stillToCome(id, clock.now()))) as [{ ahead: number }];
    if (ahead > 0) throw new ApiError(409, 'table_in_use', 'store.error.tableHasBookings', { params: { count: ahead } });
    const [past] = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.tableId, id)).limit(1);
    if (past) throw new ApiError(409, 'table_in_use', 'store.error.tableHasHistory');
    await tx.delete(storeTables).where(eq(storeTables.id, id));
    const { storeId: store, ...before } = old;
    await audit(tx, scope, { action: 'table_delete', storeId: store, targetId: id, detail: { label: old.label }, before: tableState(before), after: null });
    return store;
  });
  if (storeId === null) throw notFound();
  await publishAvailabilityChange(db, [storeId]);
}

/** Replaces the default stay and the turn times; bookings already made keep their end. */
export async function setTurnTimes(db: Db, scope: StaffScope, input: TurnTimesInput): Promise<StoreTablesJson> {
  const storeId = storeOf(scope, input.store_id);
  const pairs = input.turn_times.map((t): [number, number] => [t.party_size, t.minutes]).sort((a, b) => a[0] - b[0]);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const [old] = await tx.select({ stayMinutes: stores.stayMinutes, turnTimes: stores.turnTimes }).from(stores).where(eq(stores.id, storeId));
    await tx.update(stores).set({ stayMinutes: input.stay_minutes, turnTimes: pairs }).where(eq(stores.id, storeId));
    const state = (stay: number, times: readonly (readonly [number, number])[]) => ({
      stay_minutes: stay,
      turn_times: times.map(([party_size, minutes]) => ({ party_size, minutes })),
    });
    await audit(tx, scope, {
      action: 'turn_times_set',
      storeId,
      detail: { stay_minutes: input.stay_minutes, turn_times: input.turn_times },
      before: old ? state(old.stayMinutes, old.turnTimes) : null,
      after: state(input.stay_minutes, pairs),
    });
  });
  await publishAvailabilityChange(db, [storeId]);
  return listTables(db, storeId);
}
