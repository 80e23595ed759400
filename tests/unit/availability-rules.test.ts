import { describe, expect, it } from 'vitest';
import { tokyoInstant, formatTime } from '../../src/lib/datetime';
import { translatorFor } from '../../src/i18n';
import {
  bookableDates,
  bookableNow,
  businessDate,
  freeTablesFor,
  nextMarks,
  ofKind,
  openingIntervals,
  slotsForDate,
  smallestFit,
  startProblem,
  type StoreState,
  type TableInfo,
  type WeeklyHours,
} from '../../src/server/availability/rules';

// Times as the app writes them: past midnight under the business day (翌0:15).
const ja = translatorFor('ja');

const everyDay = (opensMin: number, closesMin: number): WeeklyHours[] => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin, closesMin }));
const tables: TableInfo[] = [
  { id: 1, kind: 'counter', minParty: 1, maxParty: 2, online: true },
  { id: 2, kind: 'table', minParty: 2, maxParty: 4, online: true },
  { id: 3, kind: 'private_room', minParty: 4, maxParty: 8, online: true },
];
const store = (over: Partial<StoreState> = {}): StoreState => ({
  hours: everyDay(17 * 60, 23 * 60),
  overrides: [],
  turnTimes: [],
  stayMinutes: 120,
  tables,
  busy: [],
  ...over,
});
// Saturday 2026-11-21 in Tokyo.
const at = (hhmm: string, date = '2026-11-21') => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return tokyoInstant(date, h * 60 + m);
};
const times = (slots: { start: Date }[]) => slots.map((s) => formatTime(s.start, ja));

describe('15-minute marks', () => {
  it('offers the marks of the next hour and never a past one', () => {
    expect(nextMarks(at('21:40')).map((d) => formatTime(d, ja))).toEqual(['21:45', '22:00', '22:15', '22:30']);
    expect(nextMarks(at('21:45')).map((d) => formatTime(d, ja))).toEqual(['21:45', '22:00', '22:15', '22:30', '22:45']);
    expect(nextMarks(new Date(at('21:45').getTime() + 1)).map((d) => formatTime(d, ja))).toEqual(['22:00', '22:15', '22:30', '22:45']);
  });
});

describe('bookable now', () => {
  it('needs a full stay before closing time', () => {
    // Closes 23:00, stays are 2 h: at 20:40 only 20:45 and 21:00 fit.
    expect(times(bookableNow(store(), 2, at('20:40')).nextSlots)).toEqual(['20:45', '21:00']);
    expect(bookableNow(store(), 2, at('21:10')).nextSlots).toEqual([]);
  });

  it('follows hours that run past midnight', () => {
    const bar = store({ hours: everyDay(18 * 60, 27 * 60) }); // 18:00–03:00
    expect(times(bookableNow(bar, 2, at('00:20', '2026-11-22')).nextSlots)).toEqual(['翌0:30', '翌0:45', '翌1:00']);
    expect(bookableNow(bar, 2, at('01:10', '2026-11-22')).nextSlots).toEqual([]);
  });

  it('keeps a 24-hour store bookable across midnight', () => {
    const allDay = store({ hours: everyDay(0, 1440) });
    expect(times(bookableNow(allDay, 2, at('23:20')).nextSlots)).toEqual(['23:30', '23:45', '翌0:00', '翌0:15']);
    expect(openingIntervals(allDay.hours, at('12:00'), at('12:00', '2026-11-24'))).toHaveLength(1);
  });

  it('counts free fitting tables and frees a table when its booking is cancelled', () => {
    const now = at('20:40');
    const held = [{ tableId: 2, start: at('21:00'), end: at('23:00') }];
    // Only table 2 seats three; while it is held nothing is offered, once cancelled both starts are.
    expect(bookableNow(store({ busy: held }), 3, now)).toEqual({ nextSlots: [], freeTables: 0 });
    const freed = bookableNow(store({ busy: [] }), 3, now);
    expect(times(freed.nextSlots)).toEqual(['20:45', '21:00']);
    expect(freed.freeTables).toBe(1);
    // Two people fit the counter and table 2: one of them is held.
    expect(bookableNow(store({ busy: held }), 2, now).nextSlots.map((s) => s.freeTables)).toEqual([1, 1]);
    expect(bookableNow(store(), 2, now).freeTables).toBe(2);
  });

  it('has nothing for a party bigger than any table', () => {
    expect(bookableNow(store(), 9, at('18:00')).nextSlots).toEqual([]);
  });
});

describe('slots of a day', () => {
  it('runs from 05:00 to 05:00 and leaves out what has passed', () => {
    const bar = store({ hours: everyDay(18 * 60, 26 * 60) });
    const slots = slotsForDate(bar, 2, '2026-11-21', at('23:05'));
    expect(times(slots)).toEqual(['23:15', '23:30', '23:45', '翌0:00']);
    expect(businessDate(at('01:00', '2026-11-22'))).toBe('2026-11-21');
  });
});

describe('table assignment', () => {
  it('gives the smallest table that fits; a seat kind asked for narrows the tables and is never dropped', () => {
    const forTwo = tables.filter((t) => t.maxParty >= 2 && t.minParty <= 2);
    expect(smallestFit(forTwo)?.id).toBe(1);
    expect(smallestFit(ofKind({ tables: forTwo }, 'table').tables)?.id).toBe(2);
    expect(smallestFit(ofKind({ tables: tables.slice(0, 1) }, 'tatami').tables)).toBeNull();
    expect(smallestFit(ofKind({ tables: forTwo }, null).tables)?.id).toBe(1);
    expect(smallestFit([])).toBeNull();
    // The listing, the day's starts and the booking count only that kind's tables.
    const rooms = ofKind(store(), 'private_room');
    expect(slotsForDate(rooms, 2, '2026-11-21', at('10:00')).every((s) => s.freeTables === 0)).toBe(true);
    expect(slotsForDate(rooms, 4, '2026-11-21', at('10:00')).every((s) => s.freeTables === 1)).toBe(true);
  });
});

describe('what can be booked at all', () => {
  const now = at('20:40');
  it('refuses unaligned, past, closed and too-far starts', () => {
    expect(startProblem(store(), at('20:50'), now, 2)).toBe('unaligned');
    expect(startProblem(store(), at('20:30'), now, 2)).toBe('past');
    expect(startProblem(store(), at('21:30'), now, 2)).toBe('closed');
    expect(startProblem(store(), at('18:00', '2026-12-04'), now, 2)).toBeNull();
    expect(startProblem(store(), at('18:00', '2026-12-05'), now, 2)).toBe('too_far');
    expect(bookableDates(now)).toHaveLength(14);
  });
});

describe('one-off days (臨時休業, changed hours)', () => {
  it('closes the day it names and no other', () => {
    const closed = store({ overrides: [{ date: '2026-11-21', hours: [] }] });
    expect(slotsForDate(closed, 2, '2026-11-21', at('10:00'))).toEqual([]);
    expect(bookableNow(closed, 2, at('20:40')).nextSlots).toEqual([]);
    expect(startProblem(closed, at('19:00'), at('10:00'), 2)).toBe('closed');
    expect(times(slotsForDate(closed, 2, '2026-11-22', at('10:00')))).toContain('19:00');
  });

  it('replaces the week’s hours for that day, past midnight too', () => {
    // Normally 17:00–23:00; this Saturday 20:00–翌2:00.
    const late = store({ overrides: [{ date: '2026-11-21', hours: [{ opensMin: 20 * 60, closesMin: 26 * 60 }] }] });
    const slots = times(slotsForDate(late, 2, '2026-11-21', at('10:00')));
    expect(slots[0]).toBe('20:00');
    expect(slots[slots.length - 1]).toBe('翌0:00');
    expect(slots).not.toContain('19:45');
    expect(times(bookableNow(late, 2, at('23:50')).nextSlots)).toEqual(['翌0:00']);
    expect(startProblem(late, at('17:00'), at('10:00'), 2)).toBe('closed');
    expect(startProblem(late, at('00:00', '2026-11-22'), at('10:00'), 2)).toBeNull();
  });

  it('a closed date is its business day: a bar’s hours after midnight close with it, the night before keeps its own', () => {
    // Open 18:00–翌2:00 every day; Saturday 2026-11-21 closed.
    const bar = store({ hours: everyDay(18 * 60, 26 * 60), overrides: [{ date: '2026-11-21', hours: [] }] });
    const before = at('10:00', '2026-11-20');
    // Friday's night runs into Saturday's early morning, as the week says.
    expect(startProblem(bar, at('00:00', '2026-11-21'), before, 2)).toBeNull();
    expect(times(slotsForDate(bar, 2, '2026-11-20', before)).at(-1)).toBe('翌0:00');
    // Saturday's evening and its hours past midnight (Sunday 0:00–2:00) are closed.
    expect(slotsForDate(bar, 2, '2026-11-21', before)).toEqual([]);
    expect(startProblem(bar, at('19:00'), before, 2)).toBe('closed');
    expect(startProblem(bar, at('00:00', '2026-11-22'), before, 2)).toBe('closed');
    // Sunday is the week's again.
    expect(startProblem(bar, at('19:00', '2026-11-22'), before, 2)).toBeNull();
  });

  it('on a store open around the clock, a closed date runs 05:00 to 05:00, as its day’s starts and bookings do', () => {
    const allDay = store({ hours: everyDay(0, 1440), overrides: [{ date: '2026-11-21', hours: [] }] });
    const before = at('10:00', '2026-11-19');
    // Saturday 03:00 is Friday's business day: open. Sunday 03:00 is Saturday's: closed.
    expect(startProblem(allDay, at('03:00', '2026-11-21'), before, 2)).toBeNull();
    expect(startProblem(allDay, at('03:00', '2026-11-22'), before, 2)).toBe('closed');
    expect(slotsForDate(allDay, 2, '2026-11-21', before)).toEqual([]);
    // Friday's last stay ends at 05:00 on Saturday; Sunday's first starts at 05:00.
    expect(times(slotsForDate(allDay, 2, '2026-11-20', before)).at(-1)).toBe('翌3:00');
    expect(times(slotsForDate(allDay, 2, '2026-11-22', before))[0]).toBe('5:00');
    // Changed hours on that business day replace the week's for all of it, 05:00 to 05:00.
    const short = store({ hours: everyDay(0, 1440), overrides: [{ date: '2026-11-21', hours: [{ opensMin: 10 * 60, closesMin: 22 * 60 }] }] });
    const slots = times(slotsForDate(short, 2, '2026-11-21', before));
    expect([slots[0], slots.at(-1)]).toEqual(['10:00', '20:00']);
  });
});

describe('table settings', () => {
  it('gives each party size its turn time, the store’s default for the others', () => {
    const turns = store({
      turnTimes: [
        { party: 2, minutes: 90 },
        { party: 6, minutes: 180 },
      ],
    });
    const length = (party: number) => slotsForDate(turns, party, '2026-11-21', at('10:00')).map((s) => (s.end.getTime() - s.start.getTime()) / 60_000);
    expect(new Set(length(2))).toEqual(new Set([90]));
    expect(new Set(length(6))).toEqual(new Set([180]));
    expect(new Set(length(3))).toEqual(new Set([120]));
    // Closing at 23:00: a pair's last start is 21:30, a party of six's 20:00.
    expect(times(slotsForDate(turns, 2, '2026-11-21', at('10:00'))).at(-1)).toBe('21:30');
    expect(times(slotsForDate(turns, 6, '2026-11-21', at('10:00'))).at(-1)).toBe('20:00');
    expect(startProblem(turns, at('20:30'), at('10:00'), 6)).toBe('closed');
    expect(startProblem(turns, at('20:30'), at('10:00'), 2)).toBeNull();
  });

  it('never offers a walk-in-only table', () => {
    const walkIn = store({ tables: tables.map((t) => (t.id === 1 ? { ...t, online: false } : t)) });
    expect(bookableNow(walkIn, 1, at('20:40')).nextSlots).toEqual([]);
    expect(bookableNow(walkIn, 2, at('20:40')).freeTables).toBe(1);
    expect(freeTablesFor(walkIn.tables, [], at('21:00'), at('23:00'), 2).map((t) => t.id)).toEqual([2]);
  });
});
