/**
 * The "bookable now" rule and slot arithmetic (DESIGN §3), pure so that the edges — closing
 * time, hours past midnight, 24-hour stores, cancellations, 15-minute marks — are tested alone.
 * All dates are instants; days and weekdays are Asia/Tokyo (see src/lib/datetime).
 *
 * One module: these small pure functions are together the definition of "bookable now" that the
 * index is proved equal to; they are read, and tested, as one rule.
 */
import { addTokyoDays, BUSINESS_DAY_START_MIN, businessDate, MINUTE_MS, tokyoInstant, tokyoParts } from '../../lib/datetime';
import type { TableKind } from '../../lib/contract/enums';

// The numbers the copy states too (「15分単位」, 「13日後まで」) live in the contract.
export { BOOKING_DAYS_AHEAD, NOW_WINDOW_MIN, SLOT_STEP_MIN } from '../../lib/contract/limits';
import { BOOKING_DAYS_AHEAD, NOW_WINDOW_MIN, SLOT_STEP_MIN } from '../../lib/contract/limits';
// The business day (05:00 to 05:00) is the shown times' rule too, so it lives in src/lib/datetime.
export { BUSINESS_DAY_START_MIN, businessDate } from '../../lib/datetime';

export interface WeeklyHours {
  /** 0 = Sunday, Tokyo. */
  weekday: number;
  /** Minutes after that day's midnight. */
  opensMin: number;
  /** May exceed 1440 when the night runs past midnight. */
  closesMin: number;
}

/**
 * A one-off day (臨時休業 or changed hours) for business day `date` (Tokyo, 05:00 to 05:00 the next
 * morning, as the day's bookings and pages count it): the week's openings are cut out of that
 * business day and these put in their place; none means closed. So closing a bar's Saturday closes
 * its hours after midnight too (Sunday 0:00–2:00), while Friday's night, running into Saturday's
 * early morning, keeps its hours. Times count from the date's midnight like weekly hours, so
 * `closesMin` past 1440 runs into the next morning (docs/hours-and-closures.md).
 */
export interface DayOverride {
  date: string;
  hours: readonly { opensMin: number; closesMin: number }[];
}

/** A one-off day as the database keeps it (`[opensMin, closesMin]` pairs). */
export const closureOverride = (date: string, hours: readonly (readonly [number, number])[]): DayOverride => ({
  date,
  hours: hours.map(([opensMin, closesMin]) => ({ opensMin, closesMin })),
});

export interface TableInfo {
  id: number;
  kind: TableKind;
  minParty: number;
  maxParty: number;
  /** False for a walk-in-only table: never offered to diners nor booked online; staff may still block it. */
  online: boolean;
}

/** How long a party of `party` keeps its table, when the store set it for that size. */
export interface TurnTime {
  party: number;
  minutes: number;
}

/** Turn times as the database keeps them (`[party, minutes]` pairs). */
export const turnTimesOf = (pairs: readonly (readonly [number, number])[]): TurnTime[] =>
  pairs.map(([party, minutes]) => ({ party: Number(party), minutes: Number(minutes) }));

/** A party's stay: its size's turn time, else the store's default. */
export const stayFor = (store: { stayMinutes: number; turnTimes: readonly TurnTime[] }, party: number): number =>
  store.turnTimes.find((t) => t.party === party)?.minutes ?? store.stayMinutes;

/** A confirmed booking holding a table. */
export interface Busy {
  tableId: number;
  start: Date;
  end: Date;
}

export interface Interval {
  start: Date;
  end: Date;
}

export interface Slot {
  start: Date;
  end: Date;
  /** Tables that fit the party and are free for the whole stay. */
  freeTables: number;
}

const addMinutes = (at: Date, minutes: number) => new Date(at.getTime() + minutes * MINUTE_MS);

/** [05:00 of `date`, 05:00 of the next day) in Tokyo. */
export function businessDayRange(date: string): Interval {
  return { start: tokyoInstant(date, BUSINESS_DAY_START_MIN), end: tokyoInstant(addTokyoDays(date, 1), BUSINESS_DAY_START_MIN) };
}

/** The dates a diner may book: today's business day and the 13 after it. */
export function bookableDates(now: Date): string[] {
  const today = businessDate(now);
  return Array.from({ length: BOOKING_DAYS_AHEAD + 1 }, (_, i) => addTokyoDays(today, i));
}

/**
 * The opening intervals that touch [from, to], merged where one ends as the next begins, so a
 * 24-hour store or a night running into the next day's hours is one long interval.
 */
export function openingIntervals(hours: readonly WeeklyHours[], from: Date, to: Date, overrides: readonly DayOverride[] = []): Interval[] {
  const raw: Interval[] = [];
  const byDate = new Map(overrides.map((o) => [o.date, o.hours]));
  // The business days a one-off day replaces: the week's openings never reach into them.
  const replaced = overrides.map((o) => businessDayRange(o.date));
  const add = (date: string, h: { opensMin: number; closesMin: number }, cuts: readonly Interval[]) => {
    for (const i of without({ start: tokyoInstant(date, h.opensMin), end: tokyoInstant(date, h.closesMin) }, cuts)) {
      if (i.end > from && i.start < to) raw.push(i);
    }
  };
  // A night that started yesterday may still be open at `from`.
  let date = addTokyoDays(tokyoParts(from).date, -2);
  const last = tokyoParts(to).date;
  for (let guard = 0; guard < 400 && date <= last; guard++, date = addTokyoDays(date, 1)) {
    const weekday = tokyoParts(tokyoInstant(date, 12 * 60)).weekday;
    for (const h of hours) if (h.weekday === weekday) add(date, h, replaced);
    for (const h of byDate.get(date) ?? []) add(date, h, []);
  }
  raw.sort((a, b) => a.start.getTime() - b.start.getTime());
  const merged: Interval[] = [];
  for (const i of raw) {
    const prev = merged[merged.length - 1];
    if (prev && i.start.getTime() <= prev.end.getTime()) {
      if (i.end > prev.end) prev.end = i.end;
    } else merged.push({ ...i });
  }
  return merged;
}

/** What is left of an interval once the cuts are taken out of it. */
function without(i: Interval, cuts: readonly Interval[]): Interval[] {
  let parts = [i];
  for (const c of cuts) {
    parts = parts.flatMap((p) =>
      p.end <= c.start || c.end <= p.start
        ? [p]
        : [...(p.start < c.start ? [{ start: p.start, end: c.start }] : []), ...(c.end < p.end ? [{ start: c.end, end: p.end }] : [])],
    );
  }
  return parts;
}

/** True when the store is open for the whole of [start, end). */
export function isOpenFor(intervals: readonly Interval[], start: Date, end: Date): boolean {
  return intervals.some((i) => i.start.getTime() <= start.getTime() && end.getTime() <= i.end.getTime());
}

/** The 15-minute marks from now (inclusive) to 60 minutes ahead (inclusive): never a past start. */
export function nextMarks(now: Date, windowMin = NOW_WINDOW_MIN): Date[] {
  const step = SLOT_STEP_MIN * MINUTE_MS;
  // Tokyo is UTC+9, a whole number of 15-minute steps, so UTC alignment is Tokyo alignment.
  const first = Math.ceil(now.getTime() / step) * step;
  const marks: Date[] = [];
  for (let t = first; t <= now.getTime() + windowMin * MINUTE_MS; t += step) marks.push(new Date(t));
  return marks;
}

export function isAligned(at: Date): boolean {
  return at.getTime() % (SLOT_STEP_MIN * MINUTE_MS) === 0;
}

/** A table of the right size for the party. */
export const fitsSize = (t: TableInfo, party: number) => t.minParty <= party && party <= t.maxParty;

/** A table diners may book for the party: online and of the right size. */
export const fitsParty = (t: TableInfo, party: number) => t.online && fitsSize(t, party);

/**
 * Tables diners may book for the party with no confirmed booking, block or walk-in overlapping
 * [start, end); with `staff`, walk-in-only tables too (the store may seat anyone at them).
 */
export function freeTablesFor(tables: readonly TableInfo[], busy: readonly Busy[], start: Date, end: Date, party: number, staff = false): TableInfo[] {
  return tables.filter(
    (t) =>
      (staff ? fitsSize(t, party) : fitsParty(t, party)) &&
      !busy.some((b) => b.tableId === t.id && b.start.getTime() < end.getTime() && start.getTime() < b.end.getTime()),
  );
}

/** The table the server assigns: the smallest that fits, so big tables stay free for big parties. */
export function smallestFit(free: readonly TableInfo[]): TableInfo | null {
  return [...free].sort((a, b) => a.maxParty - b.maxParty || b.minParty - a.minParty || a.id - b.id)[0] ?? null;
}

/**
 * The store as a diner who asked for a seat kind (個室, 座敷, …) sees it: only tables of that kind
 * count, for the listing, the day's starts and the booking alike.
 */
export const ofKind = <S extends { tables: readonly TableInfo[] }>(state: S, kind: TableKind | null | undefined): S =>
  kind ? { ...state, tables: state.tables.filter((t) => t.kind === kind) } : state;

export interface StoreState {
  hours: readonly WeeklyHours[];
  overrides: readonly DayOverride[];
  /** The default stay; `turnTimes` may set another per party size. */
  stayMinutes: number;
  turnTimes: readonly TurnTime[];
  tables: readonly TableInfo[];
  busy: readonly Busy[];
}

/** Every 15-minute start in [from, to) with the store open for the full stay, never before `now`. */
export function slotsBetween(store: StoreState, party: number, from: Date, to: Date, now: Date): Slot[] {
  const step = SLOT_STEP_MIN * MINUTE_MS;
  const begin = Math.max(from.getTime(), now.getTime());
  const stay = stayFor(store, party);
  const intervals = openingIntervals(store.hours, new Date(begin), addMinutes(to, stay), store.overrides);
  const slots: Slot[] = [];
  for (let t = Math.ceil(begin / step) * step; t < to.getTime(); t += step) {
    const start = new Date(t);
    const end = addMinutes(start, stay);
    if (!isOpenFor(intervals, start, end)) continue;
    slots.push({ start, end, freeTables: freeTablesFor(store.tables, store.busy, start, end, party).length });
  }
  return slots;
}

/** Slots of a business day (YYYY-MM-DD). */
export function slotsForDate(store: StoreState, party: number, date: string, now: Date): Slot[] {
  const { start, end } = businessDayRange(date);
  return slotsBetween(store, party, start, end, now);
}

/**
 * Bookable now: the starts within the next hour at which some fitting table is free for a full
 * stay inside opening hours. `freeTables` is the count at the first of them.
 */
export function bookableNow(store: StoreState, party: number, now: Date): { nextSlots: Slot[]; freeTables: number } {
  const marks = nextMarks(now);
  if (!marks.length) return { nextSlots: [], freeTables: 0 };
  const last = marks[marks.length - 1]!;
  const stay = stayFor(store, party);
  const intervals = openingIntervals(store.hours, marks[0]!, addMinutes(last, stay), store.overrides);
  const nextSlots: Slot[] = [];
  for (const start of marks) {
    const end = addMinutes(start, stay);
    if (!isOpenFor(intervals, start, end)) continue;
    const free = freeTablesFor(store.tables, store.busy, start, end, party).length;
    if (free > 0) nextSlots.push({ start, end, freeTables: free });
  }
  return { nextSlots, freeTables: nextSlots[0]?.freeTables ?? 0 };
}

export type StartProblem = 'unaligned' | 'past' | 'too_far' | 'closed';

/**
 * Whether an instant lies outside the days a diner may book at all: before today's business day,
 * or after the last bookable one. Asked before anything is read for it, so a start in the year
 * 9999 or 0 is a field error, not a query over ten thousand years.
 */
export function horizonProblem(start: Date, now: Date): 'past' | 'too_far' | null {
  const days = bookableDates(now);
  if (!(start.getTime() >= businessDayRange(days[0]!).start.getTime())) return 'past';
  if (start.getTime() >= businessDayRange(days.at(-1)!).end.getTime()) return 'too_far';
  return null;
}

/** Why a party's requested start cannot be booked at all (before looking at tables), or null. */
export function startProblem(
  store: Pick<StoreState, 'hours' | 'overrides' | 'stayMinutes' | 'turnTimes'>,
  start: Date,
  now: Date,
  party: number,
): StartProblem | null {
  if (!isAligned(start)) return 'unaligned';
  if (start.getTime() < now.getTime()) return 'past';
  if (!bookableDates(now).includes(businessDate(start))) return 'too_far';
  const end = addMinutes(start, stayFor(store, party));
  if (!isOpenFor(openingIntervals(store.hours, start, end, store.overrides), start, end)) return 'closed';
  return null;
}
