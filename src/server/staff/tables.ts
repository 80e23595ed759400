/**
 * The store's tables and turn times as staff see and set them: a table online-bookable or walk-in
 * only (never offered to diners nor booked online; staff can still block it), and how long a party
 * keeps its table, per party size with the store's default for the others. Each change is audited
 * in its transaction and announced like any availability change, so the index, the diners' slots
 * and streams and the booking transaction of every instance follow.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { stores, storeTables } from '../db/schema';
import { notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import type { StoreTablesJson, TableSettingsInput, TurnTimesInput } from '../../lib/contract/store';
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

/** Makes a table online-bookable or walk-in only; another store's table is not found. */
export async function setTable(db: Db, scope: StaffScope, id: number, input: TableSettingsInput): Promise<StoreTablesJson['items'][number]> {
  const row = await db.transaction(async (tx) => {
    const [old] = await tx.select({ online: storeTables.online }).from(storeTables).where(and(eq(storeTables.id, id), inArray(storeTables.storeId, scope.storeIds))).for('update');
    const [changed] = await tx
      .update(storeTables)
      .set({ online: input.online })
      .where(and(eq(storeTables.id, id), inArray(storeTables.storeId, scope.storeIds)))
      .returning({ storeId: storeTables.storeId, ...tableColumns });
    if (changed) await audit(tx, scope, { action: 'table_set', storeId: changed.storeId, targetId: id, detail: { online: input.online }, before: { online: old!.online }, after: { online: changed.online } });
    return changed;
  });
  if (!row) throw notFound();
  await publishAvailabilityChange(db, [row.storeId]);
  const { storeId: _store, ...table } = row;
  return table;
}

/** Replaces the default stay and the turn times; bookings already made keep their end. */
export async function setTurnTimes(db: Db, scope: StaffScope, input: TurnTimesInput): Promise<StoreTablesJson> {
  const storeId = storeOf(scope, input.store_id);
  const pairs = input.turn_times.map((t): [number, number] => [t.party_size, t.minutes]).sort((a, b) => a[0] - b[0]);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const [old] = await tx.select({ stayMinutes: stores.stayMinutes, turnTimes: stores.turnTimes }).from(stores).where(eq(stores.id, storeId));
    await tx.update(stores).set({ stayMinutes: input.stay_minutes, turnTimes: pairs }).where(eq(stores.id, storeId));
    const state = (stay: number, times: readonly (readonly [number, number])[]) => ({ stay_minutes: stay, turn_times: times.map(([party_size, minutes]) => ({ party_size, minutes })) });
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
