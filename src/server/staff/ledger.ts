/**
 * The door tablet's ledger (the store host's /list-booking-manage): one business day at one store,
 * from the same services as the store API (the day's bookings, tables and blocks), put in the
 * order staff read it — by start time — with the covers due now, in the next hour and later, and
 * each table's day as a timeline.
 */
import { asc, inArray } from 'drizzle-orm';
import type { Q } from '../db/types';
import { stores } from '../db/schema';
import { businessDayRange } from '../availability';
import { MINUTE_MS } from '../../lib/datetime';
import type { BlockJson, StoreBookingJson, WalkInJson } from '../../lib/contract/staff';
import type { StaffScope } from './access';
import { dayBookings } from './dayBookings';
import { listBlocks } from './blocks';
import { listTables } from './tables';
import { listWalkIns } from './walkIns';

const HOUR_MS = 60 * MINUTE_MS;

/** The stores of a staff account, by id (the switcher's list). */
export async function staffStoreList(q: Q, scope: StaffScope): Promise<{ id: number; name: string }[]> {
  return q.select({ id: stores.id, name: stores.name }).from(stores).where(inArray(stores.id, scope.storeIds)).orderBy(asc(stores.id));
}

/** Covers (people) still to seat or seated: confirmed bookings, not marked no-show. */
export interface Covers {
  /** At their table now. */
  now: number;
  /** Starting within the next hour. */
  nextHour: number;
  /** Starting later in the business day. */
  later: number;
}

const counts = (b: StoreBookingJson) => b.status === 'confirmed' && b.attendance !== 'no_show';

/**
 * The covers of a day's bookings around `now`.
 * @example coverCounts([{ start: '…T19:00', end: '…T21:00', party_size: 4, … }], at 19:30) // { now: 4, nextHour: 0, later: 0 }
 */
export function coverCounts(items: readonly StoreBookingJson[], now: Date): Covers {
  const at = now.getTime();
  const covers: Covers = { now: 0, nextHour: 0, later: 0 };
  for (const b of items) {
    if (!counts(b)) continue;
    const start = Date.parse(b.start);
    const end = Date.parse(b.end);
    if (start <= at && at < end) covers.now += b.party_size;
    else if (start > at && start <= at + HOUR_MS) covers.nextHour += b.party_size;
    else if (start > at + HOUR_MS) covers.later += b.party_size;
  }
  return covers;
}

/** One bar on a table's line: where it starts and how wide it is, as fractions of the window. */
export interface Bar {
  kind: 'booking' | 'block' | 'walk_in';
  id: number;
  left: number;
  width: number;
  label: string;
  start: string;
  end: string;
}

export interface TableLine {
  id: number;
  label: string;
  kind: StoreBookingJson['table']['kind'];
  minParty: number;
  maxParty: number;
  online: boolean;
  bars: Bar[];
}

export interface Timeline {
  /** The window shown, whole hours: from the day's first start (or now) to its last end. */
  from: number;
  to: number;
  /** Whole hours inside the window, for the scale. */
  hours: number[];
  /** Where now is, as a fraction of the window; null when now is outside it (another day). */
  now: number | null;
  tables: TableLine[];
}

/**
 * Each table's day: its bookings (not cancelled) and its blocks (not released) as bars over a
 * window of whole hours, clipped to the business day, with now marked when it falls inside.
 */
export function timelineOf(
  date: string,
  tables: readonly { id: number; label: string; kind: TableLine['kind']; min_party: number; max_party: number; online: boolean }[],
  items: readonly StoreBookingJson[],
  blocks: readonly BlockJson[],
  now: Date,
  walkIns: readonly WalkInJson[] = [],
): Timeline {
  const day = businessDayRange(date);
  const dayStart = day.start.getTime();
  const dayEnd = day.end.getTime();
  const live = items.filter((b) => b.status === 'confirmed');
  const held = blocks.filter((b) => b.released_at === null);
  const at = now.getTime();
  const today = at >= dayStart && at < dayEnd;
  const starts = [...live, ...held, ...walkIns].map((b) => Date.parse(b.start));
  const ends = [...live, ...held, ...walkIns].map((b) => Date.parse(b.end));
  if (today) {
    starts.push(at);
    ends.push(at + HOUR_MS);
  }
  const floorHour = (ms: number) => dayStart + Math.floor((ms - dayStart) / HOUR_MS) * HOUR_MS;
  const ceilHour = (ms: number) => dayStart + Math.ceil((ms - dayStart) / HOUR_MS) * HOUR_MS;
  // A day with nothing on it shows its evening, when most bookings are.
  const from = starts.length ? Math.max(dayStart, floorHour(Math.min(...starts))) : dayStart + 12 * HOUR_MS;
  let to = ends.length ? Math.min(dayEnd, ceilHour(Math.max(...ends))) : from + 6 * HOUR_MS;
  if (to - from < 3 * HOUR_MS) to = Math.min(dayEnd, from + 3 * HOUR_MS);
  const span = to - from;
  const fraction = (ms: number) => Math.min(1, Math.max(0, (ms - from) / span));
  const bar = (kind: Bar['kind'], b: { id: number; start: string; end: string }, label: string): Bar => {
    const left = fraction(Date.parse(b.start));
    return { kind, id: b.id, left, width: Math.max(0, fraction(Date.parse(b.end)) - left), label, start: b.start, end: b.end };
  };
  const hours: number[] = [];
  for (let h = from; h <= to; h += HOUR_MS) hours.push(h);
  return {
    from,
    to,
    hours,
    now: today && at >= from && at <= to ? fraction(at) : null,
    tables: tables.map((t) => ({
      id: t.id,
      label: t.label,
      kind: t.kind,
      minParty: t.min_party,
      maxParty: t.max_party,
      online: t.online,
      bars: [
        ...live.filter((b) => b.table.id === t.id).map((b) => bar('booking', b, b.contact.name)),
        ...held.filter((b) => b.table.id === t.id).map((b) => bar('block', b, b.reason)),
        ...walkIns.filter((w) => w.table.id === t.id).map((w) => bar('walk_in', w, w.name)),
      ].sort((a, b) => a.left - b.left),
    })),
  };
}

export interface Ledger {
  storeId: number;
  date: string;
  /** The day's bookings by start time (then table), cancelled ones included. */
  items: StoreBookingJson[];
  /** The day's walk-ins still holding (or having held) a table, earliest first. */
  walkIns: WalkInJson[];
  covers: Covers;
  timeline: Timeline;
}

/** The ledger of business day `date` at `storeId` (already checked against the staff's stores). */
export async function ledgerOf(q: Q, storeId: number, date: string, now: Date): Promise<Ledger> {
  const [items, tables, blocks, walkIns] = await Promise.all([
    dayBookings(q, storeId, date),
    listTables(q, storeId),
    listBlocks(q, storeId, date),
    listWalkIns(q, storeId, date),
  ]);
  items.sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || a.table.label.localeCompare(b.table.label) || a.id - b.id);
  return { storeId, date, items, walkIns, covers: coverCounts(items, now), timeline: timelineOf(date, tables.items, items, blocks, now, walkIns) };
}
