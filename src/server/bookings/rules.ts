/**
 * What create and change share inside their transaction: the store's row lock, the start and
 * party checks, the choice of table, and how a database conflict is read. A check that fails
 * throws `Refused`, which rolls the transaction back; the service turns it into its outcome.
 *
 * One module: the steps create and change share inside one transaction (lock, checks, table
 * choice, reading a conflict), each a few lines; the exports are those steps.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { stores } from '../db/schema';
import {
  businessDate,
  freeTablesFor,
  isOpenFor,
  openingIntervals,
  ofKind,
  stayFor,
  loadStoreStates,
  smallestFit,
  startProblem,
  storeDaySlots,
  type Slot,
  type StoreState,
  type TableInfo,
} from '../availability';
import { publishAvailabilityChange } from '../events';
import { MINUTE_MS } from '../../lib/datetime';
import type { TableKind } from '../../lib/contract/enums';
import type { Refusal, StoreChange } from './outcome';
import { clock } from '../clock';
import { largestParty } from '../../lib/party';

export class Refused {
  constructor(readonly refusal: Refusal) {}
}

const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `SG-7K3Q9P`: 32^6 ≈ 10^9 codes, without look-alike characters (0/O, 1/I). */
export function newBookingCode(): string {
  let s = '';
  for (let i = 0; i < 6; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `SG-${s}`;
}

/**
 * Locks the store's row for the rest of the transaction, so bookings at one store are decided one
 * after another on fresh data, and loads what the rules need around `start`: watch holds open at
 * `now` count as taken, except the one being claimed (`claiming`, the claimer's own).
 */
export async function lockAndLoad(tx: Q, storeId: number, start: Date, holds: { now?: Date; claiming?: number } = {}): Promise<StoreState | null> {
  const locked = await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
  if (!locked.length) return null;
  // Only bookings overlapping a stay starting at `start` matter (stays are far shorter than 12 hours).
  const states = await loadStoreStates(tx as Db, [storeId], start, new Date(start.getTime() + 12 * 60 * MINUTE_MS), holds);
  return states.get(storeId) ?? null;
}

export function checkStart(state: StoreState, start: Date, now: Date, party: number): void {
  const problem = startProblem(state, start, now, party);
  if (problem) throw new Refused({ kind: 'bad_start', problem });
}

/** A stay starting now (a called party seated from the queue): the store must be open for all of it. */
export function checkSeatNow(state: StoreState, start: Date, party: number): void {
  const end = stayEnd(state, start, party);
  if (!isOpenFor(openingIntervals(state.hours, start, end, state.overrides), start, end)) throw new Refused({ kind: 'bad_start', problem: 'closed' });
}

/** Refuses a party larger than any table diners may book (walk-in-only tables are not theirs; `staff` may use them). */
export function checkParty(state: StoreState, party: number, staff = false): void {
  const largest = largestParty(state.tables, staff);
  if (party > largest) throw new Refused({ kind: 'party_too_big', max: largest });
}

/** When the party's stay ends: its size's turn time, else the store's default. */
export const stayEnd = (state: StoreState, start: Date, party: number) => new Date(start.getTime() + stayFor(state, party) * MINUTE_MS);

/**
 * Picks a table for a stay: keeps `keep` when it still fits and is free, otherwise the smallest
 * free fit. A seat kind asked for (the listing's filter, the form's choice) is a condition, never a
 * wish quietly dropped: no free table of that kind is a taken start, answered with that kind's next
 * free starts. Staff may use walk-in-only tables and name the table (`only`): then that table or
 * none, of any kind (moving a テーブル booking to the 個室 is the store's call).
 */
export function pickTable(
  state: StoreState,
  start: Date,
  end: Date,
  party: number,
  kind: TableKind | null | undefined,
  keep?: number,
  staff?: { only?: number },
): TableInfo {
  // The table staff name is theirs to choose, whatever the diner's seat wish: among all the store's tables.
  const tables = staff?.only !== undefined ? state.tables : ofKind(state, kind).tables;
  const free = freeTablesFor(tables, state.busy, start, end, party, !!staff);
  const table = staff?.only !== undefined ? (free.find((x) => x.id === staff.only) ?? null) : (free.find((x) => x.id === keep) ?? smallestFit(free));
  if (!table) throw new Refused({ kind: 'slot_taken', nextSlots: [] });
  return table;
}

/** SQLSTATE and constraint of a database error, looking through Drizzle's wrapping. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e = err as { code?: unknown; constraint_name?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
      return { code: e.code, constraint: typeof e.constraint_name === 'string' ? e.constraint_name : undefined };
    e = e.cause as typeof e;
  }
  return {};
}

/**
 * The refusal an error stands for, or null when it is a real failure. The exclusion constraints
 * are the final word should anything slip past the lock: one table, or one diner, twice at once.
 */
export function refusalOf(err: unknown): Refusal | null {
  if (err instanceof Refused) return err.refusal;
  const pg = pgError(err);
  if (pg.code !== '23P01') return null;
  return pg.constraint === 'bookings_no_overlap_per_user_store' ? { kind: 'duplicate' } : { kind: 'slot_taken', nextSlots: [] };
}

/** Free starts that day for that party (at a table of the kind, when one was asked for), the requested time's neighbours first, at most six. */
export async function nextFreeSlots(db: Db, storeId: number, start: Date, party: number, now = clock.now(), kind?: TableKind | null): Promise<Slot[]> {
  const slots = (await storeDaySlots(db, storeId, businessDate(start), party, now, kind)) ?? [];
  const free = slots.filter((s) => s.freeTables > 0);
  const after = free.filter((s) => s.start.getTime() >= start.getTime());
  const before = free.filter((s) => s.start.getTime() < start.getTime()).reverse();
  return [...after, ...before].slice(0, 6).sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** A refusal as the caller gets it: a lost race names the next free starts, read after the rollback. */
export async function refusal(db: Db, r: Refusal, storeId: number, start: Date, party: number, now: Date, kind?: TableKind | null): Promise<Refusal> {
  return r.kind === 'slot_taken' ? { kind: 'slot_taken', nextSlots: await nextFreeSlots(db, storeId, start, party, now, kind), asked: { storeId, party } } : r;
}

/** Everything that follows a commit at a store: live pages are told its availability changed. */
export async function afterCommit(db: Db, change: StoreChange): Promise<void> {
  await publishAvailabilityChange(db, [change.storeId]);
}
