/**
 * A store's details as diners see them (name, kana, genre, address, station, phone, budget,
 * description) and its cancellation-fee policy (the numbers the one fee rule reads, and the
 * store's wording of it), as staff read and change them. Each change is audited with what it
 * replaced in its transaction, then announced like any change to the store, so the store's page,
 * the listing and every instance's cached details follow.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { stores } from '../db/schema';
import { notFound } from '../http/api';
import { publishAvailabilityChange } from '../events';
import type { StoreArrivalsInput, StoreArrivalsJson, StoreDetailsInput, StoreDetailsJson, StorePolicyInput, StorePolicyJson } from '../../lib/contract/staff';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import type { T } from '../../i18n';

const detailColumns = {
  store_id: stores.id,
  name: stores.name,
  name_kana: stores.nameKana,
  genre: stores.genre,
  address: stores.address,
  station: stores.station,
  walk_minutes: stores.walkMinutes,
  phone: stores.phone,
  budget_min: stores.budgetMin,
  budget_max: stores.budgetMax,
  description: stores.description,
};

const policyColumns = {
  store_id: stores.id,
  cancel_free_hours: stores.cancelFreeHours,
  cancel_fee_yen: stores.cancelFeeYen,
  cancellation_policy: stores.cancellationPolicy,
};

const arrivalColumns = {
  store_id: stores.id,
  grace_minutes: stores.graceMinutes,
  auto_release: stores.autoRelease,
  queue_claim_minutes: stores.queueClaimMinutes,
  queue_mode: stores.queueMode,
};

/**
 * The translator for the details' field errors: their `name` is the store's name (店名), not a
 * person's (氏名, the label every other form's `name` has).
 */
export function detailsTranslator(t: T): T {
  return (key, params) => (key === 'field.name' ? t('storehost.details.name') : t(key, params));
}

/** The store's details and policy (the caller has checked the store is the staff's). */
export async function getStoreDetails(q: Q, storeId: number): Promise<StoreDetailsJson> {
  const [row] = await q
    .select({ ...detailColumns, ...policyColumns })
    .from(stores)
    .where(eq(stores.id, storeId));
  if (!row) throw notFound();
  return row;
}

export async function getPolicy(q: Q, storeId: number): Promise<StorePolicyJson> {
  const [row] = await q.select(policyColumns).from(stores).where(eq(stores.id, storeId));
  if (!row) throw notFound();
  return row;
}

/** Replaces the details diners see; the audit keeps the fields that changed, before and after. */
export async function setStoreDetails(db: Db, scope: StaffScope, input: StoreDetailsInput): Promise<StoreDetailsJson> {
  const storeId = storeOf(scope, input.store_id);
  const values = {
    name: input.name,
    nameKana: input.name_kana,
    genre: input.genre,
    address: input.address,
    station: input.station,
    walkMinutes: input.walk_minutes,
    phone: input.phone,
    budgetMin: input.budget_min,
    budgetMax: input.budget_max,
    description: input.description?.trim() ?? '',
  };
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const [old] = await tx.select(detailColumns).from(stores).where(eq(stores.id, storeId));
    const [now] = await tx.update(stores).set(values).where(eq(stores.id, storeId)).returning(detailColumns);
    const changed = (Object.keys(now!) as (keyof typeof now)[]).filter((k) => old![k] !== now![k]);
    const pick = (row: Record<string, unknown>) => Object.fromEntries(changed.map((k) => [k, row[k]]));
    await audit(tx, scope, { action: 'details_set', storeId, detail: { fields: changed }, before: pick(old!), after: pick(now!) });
  });
  await publishAvailabilityChange(db, [storeId]);
  return getStoreDetails(db, storeId);
}

/**
 * Replaces the cancellation-fee policy. The fee rule reads it whenever a booking is cancelled or
 * marked, so the change applies to bookings already made from now on (the page says so).
 */
export async function setPolicy(db: Db, scope: StaffScope, input: StorePolicyInput): Promise<StorePolicyJson> {
  const storeId = storeOf(scope, input.store_id);
  const values = { cancelFreeHours: input.cancel_free_hours, cancelFeeYen: input.cancel_fee_yen, cancellationPolicy: input.cancellation_policy?.trim() ?? '' };
  const saved = await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const [old] = await tx.select(policyColumns).from(stores).where(eq(stores.id, storeId));
    const [now] = await tx.update(stores).set(values).where(eq(stores.id, storeId)).returning(policyColumns);
    const { store_id: _b, ...before } = old!;
    const { store_id: _a, ...after } = now!;
    await audit(tx, scope, { action: 'policy_set', storeId, before, after });
    return now!;
  });
  await publishAvailabilityChange(db, [storeId]);
  return saved;
}

/** How the store treats a party that has not arrived (the grace period and automatic release), and its 順番待ち. */
export async function getArrivals(q: Q, storeId: number): Promise<StoreArrivalsJson> {
  const [row] = await q.select(arrivalColumns).from(stores).where(eq(stores.id, storeId));
  if (!row) throw notFound();
  return row;
}

/**
 * Sets the grace period and automatic release. The ledger and the release job read them at each
 * look, so the change applies to today's bookings from now on; audited before and after.
 */
export async function setArrivals(db: Db, scope: StaffScope, input: StoreArrivalsInput): Promise<StoreArrivalsJson> {
  const storeId = storeOf(scope, input.store_id);
  const saved = await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    const [old] = await tx.select(arrivalColumns).from(stores).where(eq(stores.id, storeId));
    const [now] = await tx
      .update(stores)
      .set({
        graceMinutes: input.grace_minutes,
        autoRelease: input.auto_release,
        ...(input.queue_claim_minutes === undefined ? {} : { queueClaimMinutes: input.queue_claim_minutes }),
        ...(input.queue_mode === undefined ? {} : { queueMode: input.queue_mode }),
      })
      .where(eq(stores.id, storeId))
      .returning(arrivalColumns);
    const { store_id: _b, ...before } = old!;
    const { store_id: _a, ...after } = now!;
    await audit(tx, scope, { action: 'arrivals_set', storeId, before, after });
    return now!;
  });
  // The store page reads the queue mode with the store's details, kept until a change is announced.
  await publishAvailabilityChange(db, [storeId]);
  return saved;
}
