/**
 * One store's availability as bits over 15-minute cells (docs/availability-index.md).
 *
 * A frame starts at 05:00 of a business day and spans the bookable days plus one more, so that a
 * stay starting late on the last bookable day still fits. Per store, one row of bits per stay
 * length (the default and each party size's turn time) says at which cells a full stay can start
 * inside opening hours, and one row per table says which cells a confirmed booking or block holds. "Free for a stay starting at cell c" is then "bits c … c+k−1 of the
 * table's row are all 0", a couple of word reads. Everything here is pure; the answers are proved
 * equal to rules.ts by tests/unit/availability-grid.test.ts.
 *
 * One module: the bit layout (frame, cells, one row per stay length and per table) and every
 * question asked of it are one data structure; its many exports are that structure's operations,
 * and the layout's invariants are checked against rules.ts in one test.
 */
import { MINUTE_MS } from '../../lib/datetime';
import {
  BOOKING_DAYS_AHEAD,
  businessDate,
  businessDayRange,
  fitsParty,
  nextMarks,
  NOW_WINDOW_MIN,
  openingIntervals,
  SLOT_STEP_MIN,
  stayFor,
  type Busy,
  type DayOverride,
  type Slot,
  type TableInfo,
  type TurnTime,
  type WeeklyHours,
} from './rules';
import type { TableKind } from '../../lib/contract/enums';

export const STEP_MS = SLOT_STEP_MIN * MINUTE_MS;
export const CELLS_PER_DAY = (24 * 60) / SLOT_STEP_MIN;
/** The bookable days and one more for stays that run past the last one. */
export const FRAME_DAYS = BOOKING_DAYS_AHEAD + 2;
export const FRAME_CELLS = FRAME_DAYS * CELLS_PER_DAY;
const WORDS = Math.ceil(FRAME_CELLS / 32);

export interface Frame {
  /** The business day (YYYY-MM-DD) the frame starts on. */
  date: string;
  /** 05:00 of that day, epoch ms. */
  startMs: number;
  endMs: number;
}

export function frameFor(now: Date): Frame {
  const date = businessDate(now);
  const startMs = businessDayRange(date).start.getTime();
  return { date, startMs, endMs: startMs + FRAME_CELLS * STEP_MS };
}

/** Cells [from, to) of the frame that a confirmed booking holds on a table. */
export interface Held {
  tableId: number;
  from: number;
  to: number;
}

/** What the grid needs to know about a store. */
export interface StoreInput {
  hours: readonly WeeklyHours[];
  overrides: readonly DayOverride[];
  stayMinutes: number;
  turnTimes: readonly TurnTime[];
  tables: readonly TableInfo[];
  held: readonly Held[];
}

/**
 * A booking holds every cell it touches. Starts are on 15-minute marks (the booking rules refuse
 * others), so a stay and a booking overlap exactly when their cells do.
 */
export const heldCells = (frame: Frame, b: Busy): Held => ({
  tableId: b.tableId,
  from: Math.floor((b.start.getTime() - frame.startMs) / STEP_MS),
  to: Math.ceil((b.end.getTime() - frame.startMs) / STEP_MS),
});

export interface StoreGrid {
  stayMinutes: number;
  turnTimes: readonly TurnTime[];
  /** The distinct stay lengths in minutes, the default first. */
  stays: readonly number[];
  tables: readonly TableInfo[];
  /**
   * Row k < stays.length: a full stay of stays[k] can start here inside opening hours.
   * Row stays.length + i: table i is held.
   */
  bits: Uint32Array;
}

const rowOffset = (row: number) => row * WORDS;
const tableRow = (g: StoreGrid, i: number) => rowOffset(g.stays.length + i);
/** A party's stay in minutes and in cells (a stay needing cells past the frame is never offered), and its open row. */
function partyStay(g: StoreGrid, party: number) {
  const minutes = stayFor(g, party);
  return { minutes, cells: Math.ceil(minutes / SLOT_STEP_MIN), open: rowOffset(g.stays.indexOf(minutes)) };
}

function setRange(bits: Uint32Array, offset: number, from: number, to: number) {
  for (let c = Math.max(0, from); c < Math.min(to, FRAME_CELLS); c++) bits[offset + (c >>> 5)]! |= 1 << (c & 31);
}

const testBit = (bits: Uint32Array, offset: number, c: number) => (bits[offset + (c >>> 5)]! & (1 << (c & 31))) !== 0;

/** True when cells [from, from + count) of a row are all 0 and inside the frame. */
function rangeClear(bits: Uint32Array, offset: number, from: number, count: number): boolean {
  const to = from + count;
  if (from < 0 || to > FRAME_CELLS) return false;
  let c = from;
  while (c < to) {
    const word = c >>> 5;
    const lo = c & 31;
    const hi = Math.min(32, lo + (to - c));
    const mask = hi - lo === 32 ? 0xffffffff : ((1 << (hi - lo)) - 1) << lo;
    if ((bits[offset + word]! & mask) !== 0) return false;
    c += hi - lo;
  }
  return true;
}

/**
 * The open-start row depends only on the hours and the stay length, and many stores share both,
 * so a build computes it once per distinct pair.
 */
export type OpenRowCache = Map<string, Uint32Array>;

function openRow(frame: Frame, hours: readonly WeeklyHours[], overrides: readonly DayOverride[], stayMinutes: number, cache?: OpenRowCache): Uint32Array {
  // A store with a one-off day has its own row (few do, and only for a few days).
  const key = overrides.length
    ? undefined
    : `${stayMinutes}|${hours
        .map((h) => `${h.weekday},${h.opensMin},${h.closesMin}`)
        .sort()
        .join(';')}`;
  const hit = key === undefined ? undefined : cache?.get(key);
  if (hit) return hit;
  const row = new Uint32Array(WORDS);
  const stayMs = stayMinutes * MINUTE_MS;
  for (const i of openingIntervals(hours, new Date(frame.startMs), new Date(frame.endMs + stayMs), overrides)) {
    // Starts s on a 15-minute mark with i.start <= s and s + stay <= i.end.
    const first = Math.ceil((i.start.getTime() - frame.startMs) / STEP_MS);
    const last = Math.floor((i.end.getTime() - stayMs - frame.startMs) / STEP_MS);
    setRange(row, 0, first, last + 1);
  }
  if (key !== undefined) cache?.set(key, row);
  return row;
}

export function buildStoreGrid(frame: Frame, input: StoreInput, cache?: OpenRowCache): StoreGrid {
  const tables = [...input.tables].sort((a, b) => a.id - b.id);
  const stays = [...new Set([input.stayMinutes, ...input.turnTimes.map((t) => t.minutes)])];
  const bits = new Uint32Array(WORDS * (stays.length + tables.length));
  stays.forEach((stay, k) => bits.set(openRow(frame, input.hours, input.overrides, stay, cache), rowOffset(k)));
  const rowOf = new Map(tables.map((t, i) => [t.id, stays.length + i]));
  for (const h of input.held) {
    const row = rowOf.get(h.tableId);
    if (row !== undefined) setRange(bits, rowOffset(row), h.from, h.to);
  }
  return { stayMinutes: input.stayMinutes, turnTimes: input.turnTimes, stays, tables, bits };
}

/** The cell an aligned instant falls in, or -1 outside the frame. */
export function cellAt(frame: Frame, at: number): number {
  if (at < frame.startMs || at >= frame.endMs) return -1;
  return Math.floor((at - frame.startMs) / STEP_MS);
}

/** True when the party's full stay can start at `cell` inside opening hours. */
export const opensAt = (g: StoreGrid, party: number, cell: number) => cell >= 0 && testBit(g.bits, partyStay(g, party).open, cell);

/** Tables diners may book for the party (of the kind, when one is asked for) that are free for its full stay starting at `cell`. */
export function freeTablesAt(g: StoreGrid, party: number, cell: number, kind?: TableKind): number {
  const { cells } = partyStay(g, party);
  let n = 0;
  for (let i = 0; i < g.tables.length; i++) {
    const t = g.tables[i]!;
    if (fitsParty(t, party) && (kind === undefined || t.kind === kind) && rangeClear(g.bits, tableRow(g, i), cell, cells)) n++;
  }
  return n;
}

/** The ids of those tables. */
export function freeTableIdsAt(g: StoreGrid, party: number, cell: number): number[] {
  const { cells } = partyStay(g, party);
  return g.tables.filter((t, i) => fitsParty(t, party) && rangeClear(g.bits, tableRow(g, i), cell, cells)).map((t) => t.id);
}

function slotAt(g: StoreGrid, frame: Frame, party: number, startMs: number, kind?: TableKind): Slot | null {
  const cell = cellAt(frame, startMs);
  if (!opensAt(g, party, cell)) return null;
  return { start: new Date(startMs), end: new Date(startMs + stayFor(g, party) * MINUTE_MS), freeTables: freeTablesAt(g, party, cell, kind) };
}

/** As rules.bookableNow; null when the next hour is not inside the frame. */
export function gridBookableNow(g: StoreGrid, frame: Frame, party: number, now: Date, kind?: TableKind): { nextSlots: Slot[]; freeTables: number } | null {
  const marks = nextMarks(now);
  const last = marks[marks.length - 1];
  if (now.getTime() < frame.startMs || (last && last.getTime() >= frame.endMs)) return null;
  const nextSlots: Slot[] = [];
  for (const m of marks) {
    const slot = slotAt(g, frame, party, m.getTime(), kind);
    if (slot && slot.freeTables > 0) nextSlots.push(slot);
  }
  return { nextSlots, freeTables: nextSlots[0]?.freeTables ?? 0 };
}

/** True when some start within the hour has a free fitting table (the listing's filter, without building slots). */
export function gridIsBookableNow(g: StoreGrid, frame: Frame, party: number, now: Date): boolean | null {
  const first = Math.ceil(now.getTime() / STEP_MS) * STEP_MS;
  const lastMs = now.getTime() + NOW_WINDOW_MIN * MINUTE_MS;
  if (now.getTime() < frame.startMs || lastMs >= frame.endMs) return null;
  for (let t = first; t <= lastMs; t += STEP_MS) {
    const cell = cellAt(frame, t);
    if (opensAt(g, party, cell) && freeTablesAt(g, party, cell) > 0) return true;
  }
  return false;
}

/**
 * Bit k set when a fitting table (of the kind, when one is asked for) is free for a full stay at
 * the k-th of nextMarks(now); null when the next hour is not inside the frame.
 */
export function gridNowMask(g: StoreGrid, frame: Frame, party: number, now: Date, kind?: TableKind): number | null {
  const marks = nextMarks(now);
  const last = marks[marks.length - 1];
  if (now.getTime() < frame.startMs || (last && last.getTime() >= frame.endMs)) return null;
  let mask = 0;
  for (let k = 0; k < marks.length; k++) {
    const cell = cellAt(frame, marks[k]!.getTime());
    if (opensAt(g, party, cell) && freeTablesAt(g, party, cell, kind) > 0) mask |= 1 << k;
  }
  return mask;
}

/** The first start at or after `fromMs` (and before `toMs`) with a free fitting table, or null. */
export function gridFirstSlotFrom(g: StoreGrid, frame: Frame, party: number, fromMs: number, toMs: number, kind?: TableKind): Slot | null {
  for (let t = Math.ceil(Math.max(fromMs, frame.startMs) / STEP_MS) * STEP_MS; t < toMs && t < frame.endMs; t += STEP_MS) {
    const slot = slotAt(g, frame, party, t, kind);
    if (slot && slot.freeTables > 0) return slot;
  }
  return null;
}

/** As rules.slotsForDate; null when the day is not inside the frame's bookable days. */
export function gridDaySlots(g: StoreGrid, frame: Frame, party: number, date: string, now: Date, kind?: TableKind): Slot[] | null {
  const { start, end } = businessDayRange(date);
  if (start.getTime() < frame.startMs || end.getTime() > frame.startMs + (FRAME_DAYS - 1) * CELLS_PER_DAY * STEP_MS) return null;
  const begin = Math.max(start.getTime(), now.getTime());
  const slots: Slot[] = [];
  for (let t = Math.ceil(begin / STEP_MS) * STEP_MS; t < end.getTime(); t += STEP_MS) {
    const slot = slotAt(g, frame, party, t, kind);
    if (slot) slots.push(slot);
  }
  return slots;
}

/**
 * The starts in [from, to] at which a table the party fits is free in `after` and was not in
 * `before` (each grid read in its own frame, instant by instant): a start already free that gains
 * another table counts too, since each freed table is one more diner's to be offered. Without
 * `before`, every free start.
 */
export function gridFreedStarts(
  after: StoreGrid,
  frame: Frame,
  before: StoreGrid | undefined,
  beforeFrame: Frame,
  party: number,
  from: number,
  to: number,
): number[] {
  const out: number[] = [];
  for (const t of gridFreeStarts(after, frame, party, from, to)) {
    const was = before ? cellAt(beforeFrame, t) : -1;
    if (was < 0 || !opensAt(before!, party, was)) {
      out.push(t);
      continue;
    }
    const already = new Set(freeTableIdsAt(before!, party, was));
    if (freeTableIdsAt(after, party, cellAt(frame, t)).some((id) => !already.has(id))) out.push(t);
  }
  return out;
}

/**
 * The starts in [from, to] (epoch ms) where a full stay fits in opening hours and some table fits
 * the party, aligned to the 15-minute marks; starts outside the frame are left out.
 */
export function gridFreeStarts(g: StoreGrid, frame: Frame, party: number, from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(Math.max(from, frame.startMs) / STEP_MS) * STEP_MS; t <= to && t < frame.endMs; t += STEP_MS) {
    const cell = cellAt(frame, t);
    if (opensAt(g, party, cell) && freeTablesAt(g, party, cell) > 0) out.push(t);
  }
  return out;
}
