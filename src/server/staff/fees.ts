/**
 * The fees the one fee rule makes due (src/lib/contract/fee.ts `feeOwed`: a late cancellation by
 * the diner, a no-show marked by the store), as the store follows them up: listed by month, each
 * due until the store waives it or collects it itself, outside Sugu — Sugu takes no payment. The
 * amounts are always the rule's, never stored here; only what the store did is (booking_fees), in
 * one transaction with its audit line.
 */
import { and, asc, eq, gte, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { bookingFees, bookings, staffAudit, stores } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { feeOwed, type Owed } from '../../lib/contract/fee';
import type { FeeState } from '../../lib/contract/enums';
import type { FeeStateInput, StoreFeeDetail, StoreFeeItem, StoreFeeJson, StoreFeeList, FEE_EVENTS } from '../../lib/contract/staff';
import { toTokyoIso, tokyoInstant } from '../../lib/datetime';
import { BUSINESS_DAY_START_MIN, businessDate } from '../availability/rules';
import { bookingsWhere, storeBooking } from './dayBookings';
import { audit } from './audit';
import { staffOf, type StaffScope } from './access';
import { staffStoreList } from './ledger';
import { parseId } from '../../lib/validation';
import { clock } from '../clock';

/** The month (`YYYY-MM`) whose business days hold `at`. */
export const monthOf = (at: Date): string => businessDate(at).slice(0, 7);

/** The month after `month`. */
export function nextMonth(month: string, by = 1): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = y * 12 + (m - 1) + by;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
}

/** [05:00 of the month's first day, 05:00 of the next month's first day) in Tokyo. */
const monthRange = (month: string) => ({
  start: tokyoInstant(`${month}-01`, BUSINESS_DAY_START_MIN),
  end: tokyoInstant(`${nextMonth(month)}-01`, BUSINESS_DAY_START_MIN),
});

const facts = {
  id: bookings.id,
  storeId: bookings.storeId,
  start: bookings.startsAt,
  party: bookings.partySize,
  status: bookings.status,
  cancelledAt: bookings.cancelledAt,
  storeCancelReason: bookings.storeCancelReason,
  attendance: bookings.attendance,
  markedAt: bookings.markedAt,
  feeStartsAt: bookings.feeStartsAt,
  feePartySize: bookings.feePartySize,
  freeHours: stores.cancelFreeHours,
  feeYen: stores.cancelFeeYen,
  state: bookingFees.state,
  note: bookingFees.note,
  stateUpdatedAt: bookingFees.updatedAt,
};

const selectFacts = (q: Q) =>
  q.select(facts).from(bookings).innerJoin(stores, eq(stores.id, bookings.storeId)).leftJoin(bookingFees, eq(bookingFees.bookingId, bookings.id));

type Facts = Awaited<ReturnType<typeof selectFacts>>[number];

/** What the booking owes by the fee rule, or null. */
const owedBy = (f: Facts): Owed | null =>
  feeOwed(
    { freeHours: f.freeHours, feeYen: f.feeYen },
    {
      start: f.start,
      party: f.party,
      status: f.status,
      cancelledAt: f.cancelledAt,
      cancelledByStore: f.storeCancelReason !== null,
      attendance: f.attendance,
      basis: { start: f.feeStartsAt ?? f.start, party: f.feePartySize ?? f.party },
    },
  );

function feeJson(f: Facts, owed: Owed): StoreFeeJson {
  const at = owed.reason === 'late_cancellation' ? f.cancelledAt! : (f.markedAt ?? f.start);
  return {
    reason: owed.reason,
    owed_at: toTokyoIso(at),
    per_person: owed.perPerson,
    total: owed.total,
    state: f.state ?? 'due',
    note: f.note ?? '',
    state_updated_at: f.stateUpdatedAt ? toTokyoIso(f.stateUpdatedAt) : null,
  };
}

/**
 * The fees owed at `storeId` for bookings starting in `month`, earliest start first (only those in
 * `state` when given), and the month's totals in yen by state.
 */
export async function feeList(db: Db, storeId: number, month: string, state?: FeeState): Promise<StoreFeeList> {
  const { start, end } = monthRange(month);
  // Only the bookings that could owe anything; the rule itself decides which do.
  const rows = await selectFacts(db).where(
    and(
      eq(bookings.storeId, storeId),
      eq(bookings.kind, 'booking'),
      gte(bookings.startsAt, start),
      lt(bookings.startsAt, end),
      or(and(eq(bookings.status, 'cancelled'), isNull(bookings.storeCancelReason)), eq(bookings.attendance, 'no_show')),
    ),
  );
  const owing = rows.flatMap((f) => {
    const owed = owedBy(f);
    return owed ? [{ id: f.id, fee: feeJson(f, owed) }] : [];
  });
  const totals = { due: 0, waived: 0, collected: 0 };
  for (const o of owing) totals[o.fee.state] += o.fee.total;
  const shown = owing.filter((o) => !state || o.fee.state === state);
  const fees = new Map(shown.map((o) => [o.id, o.fee]));
  const found = shown.length ? await bookingsWhere(db, inArray(bookings.id, [...fees.keys()]), asc(bookings.startsAt)) : [];
  const items: StoreFeeItem[] = found.map(({ json }) => ({ booking: json, fee: fees.get(json.id)! }));
  return { store_id: storeId, month, state: state ?? null, totals, items };
}

/** The facts of a booking (not a block or walk-in) of one of the staff's stores; another store's is not found. */
async function factsOf(q: Q, scope: StaffScope, id: number): Promise<Facts> {
  const [f] = await selectFacts(q).where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)));
  if (!f) throw notFound();
  return f;
}

const FEE_HISTORY_ACTIONS = ['booking_no_show', 'booking_mark_undone', 'fee_state_set'];
type FeeEvent = (typeof FEE_EVENTS)[number];

/** One booking's fee (null when it owes none) and what happened to it, oldest first. */
export async function feeDetail(db: Db, scope: StaffScope, id: number): Promise<StoreFeeDetail> {
  const f = await factsOf(db, scope, id);
  const owed = owedBy(f);
  const booking = (await storeBooking(db, id))!;
  const lines = await db
    .select({ at: staffAudit.createdAt, action: staffAudit.action, actor: staffAudit.actorEmail, detail: staffAudit.detail, after: staffAudit.after })
    .from(staffAudit)
    .where(and(eq(staffAudit.targetId, id), eq(staffAudit.storeId, f.storeId), inArray(staffAudit.action, FEE_HISTORY_ACTIONS)))
    .orderBy(asc(staffAudit.id));
  const history: StoreFeeDetail['history'] = lines.flatMap((l) => {
    if (l.action === 'booking_no_show') return [{ at: toTokyoIso(l.at), event: 'no_show' as FeeEvent, actor: l.actor, note: '' }];
    if (l.action === 'booking_mark_undone')
      return l.detail.mark === 'no_show' ? [{ at: toTokyoIso(l.at), event: 'mark_undone' as FeeEvent, actor: l.actor, note: '' }] : [];
    const after = (l.after ?? {}) as { state?: FeeState; note?: string };
    return [{ at: toTokyoIso(l.at), event: (after.state ?? 'due') as FeeEvent, actor: l.actor, note: after.note ?? '' }];
  });
  // A diner's cancellation has no staff line: it is the booking's own, and comes before anything the store did about its fee.
  if (f.status === 'cancelled' && f.storeCancelReason === null && f.cancelledAt)
    history.unshift({ at: toTokyoIso(f.cancelledAt), event: 'cancelled', actor: null, note: '' });
  return { booking, fee: owed ? feeJson(f, owed) : null, history };
}

/**
 * Sets what the store did about a booking's fee: waived, collected outside Sugu, or back to due
 * (undo), with an optional note; the audit line keeps the state and note before and after.
 * Refused (409) for a booking that owes nothing; another store's booking is not found.
 */
export async function setFeeState(db: Db, scope: StaffScope, id: number, input: FeeStateInput, now = clock.now()): Promise<StoreFeeJson> {
  const note = input.note?.trim() ?? '';
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)))
      .for('update');
    if (!locked) throw notFound();
    const f = await factsOf(tx, scope, id);
    const owed = owedBy(f);
    if (!owed) throw new ApiError(409, 'no_fee', 'store.error.noFee');
    const before = { state: f.state ?? 'due', note: f.note ?? '' };
    const after = { state: input.state, note };
    if (before.state === after.state && before.note === after.note) return feeJson(f, owed);
    await tx
      .insert(bookingFees)
      .values({ bookingId: id, state: input.state, note, updatedAt: now, updatedBy: scope.userId })
      .onConflictDoUpdate({ target: bookingFees.bookingId, set: { state: input.state, note, updatedAt: now, updatedBy: scope.userId } });
    await audit(tx, scope, { action: 'fee_state_set', storeId: f.storeId, targetId: id, detail: { reason: owed.reason, total: owed.total }, before, after });
    return feeJson({ ...f, state: input.state, note, stateUpdatedAt: now }, owed);
  });
}

/** The store of a booking (not a block or walk-in) of one of the staff's stores, or null for any other. */
async function feeBookingStore(q: Q, scope: StaffScope, id: number): Promise<number | null> {
  const [b] = await q
    .select({ storeId: bookings.storeId })
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.kind, 'booking'), inArray(bookings.storeId, scope.storeIds)));
  return b?.storeId ?? null;
}

/**
 * What the payment/{id} and card-payment/{id} screens show: the booking (one of the staff's stores'
 * bookings, not a block or walk-in), its store and the switcher's stores; `booking` null, and the
 * page not found, for any other id. `staff` is false for an account that works for no store.
 */
export async function paymentPage(
  q: Q,
  userId: number,
  rawId: string | undefined,
): Promise<{ staff: boolean; booking: { id: number; storeId: number; stores: { id: number; name: string }[] } | null }> {
  const scope = await staffOf(q, userId);
  const id = parseId(rawId);
  const storeId = scope && id !== null ? await feeBookingStore(q, scope, id) : null;
  if (!scope || id === null || storeId === null) return { staff: scope !== null, booking: null };
  return { staff: true, booking: { id, storeId, stores: await staffStoreList(q, scope) } };
}
