/**
 * The availability index answers exactly as the pure rules do: random stores (hours past midnight,
 * 24-hour stores, closed days, lunch breaks, hours off the quarter hour, turn times per party
 * size), tables (some walk-in only), bookings,
 * one-off days (closed, or other hours, past midnight too), cancellations and clock times go
 * through the index (built from a source, then refreshed after the cancellations and after the
 * one-off days are set), and every answer is compared with rules.ts on the same state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTokyoDays, MINUTE_MS, tokyoInstant } from '../../src/lib/datetime';
import { AvailabilityIndex, BEYOND_KEPT, type IndexSource } from '../../src/server/availability/engine';
import { heldCells, STEP_MS, type Frame, type StoreInput } from '../../src/server/availability/grid';
import {
  bookableDates,
  bookableNow,
  businessDate,
  businessDayRange,
  slotsForDate,
  type Busy,
  type DayOverride,
  type StoreState,
  type TableInfo,
  type WeeklyHours,
} from '../../src/server/availability/rules';

const KINDS = ['counter', 'table', 'private_room', 'tatami'] as const;

/** A day's hours: closed, one period (maybe past midnight), a lunch break, or 24 hours. */
const dayHours = (weekday: number) =>
  fc.oneof(
    fc.constant<WeeklyHours[]>([]),
    fc.constant<WeeklyHours[]>([{ weekday, opensMin: 0, closesMin: 1440 }]),
    fc
      .record({ opens: fc.integer({ min: 0, max: 287 }), length: fc.integer({ min: 6, max: 240 }) })
      .map(({ opens, length }) => [{ weekday, opensMin: opens * 5, closesMin: Math.min(opens * 5 + length * 5, 2880) }]),
    fc
      .record({ lunch: fc.integer({ min: 120, max: 156 }), dinner: fc.integer({ min: 200, max: 230 }), late: fc.integer({ min: 0, max: 60 }) })
      .map(({ lunch, dinner, late }) => [
        { weekday, opensMin: lunch * 5, closesMin: lunch * 5 + 150 },
        { weekday, opensMin: dinner * 5, closesMin: dinner * 5 + 180 + late * 5 },
      ]),
  );

/**
 * One-off days around the three weeks the clock moves through (from two days before, so a changed
 * night may still be open): closed, or a day's hours like the week's (past midnight, lunch break,
 * 24 hours), one entry per date.
 */
const overridesArb = fc
  .uniqueArray(fc.record({ day: fc.integer({ min: -2, max: 24 }), hours: dayHours(0) }), { selector: (o) => o.day, maxLength: 6 })
  .map((days) =>
    days.map((o): DayOverride => ({ date: addTokyoDays('2026-11-19', o.day), hours: o.hours.map(({ opensMin, closesMin }) => ({ opensMin, closesMin })) })),
  );

const hoursArb = fc.tuple(...[0, 1, 2, 3, 4, 5, 6].map(dayHours)).map((days) => days.flat());

const tablesArb = fc
  .array(
    fc.record({
      min: fc.integer({ min: 1, max: 4 }),
      extra: fc.integer({ min: 0, max: 6 }),
      kind: fc.constantFrom(...KINDS),
      online: fc.constantFrom(true, true, true, false),
    }),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((ts) => ts.map((t, i): TableInfo => ({ id: 100 + i, kind: t.kind, minParty: t.min, maxParty: t.min + t.extra, online: t.online })));

/** Turn times of a few party sizes (the others keep the store's default stay). */
const turnTimesArb = fc.uniqueArray(fc.record({ party: fc.integer({ min: 1, max: 11 }), minutes: fc.constantFrom(45, 60, 75, 90, 100, 120, 150, 180, 240) }), {
  selector: (t) => t.party,
  maxLength: 4,
});

// Any instant from Thursday 2026-11-19 00:00 JST over three weeks, to the second, often on a mark.
const BASE = tokyoInstant('2026-11-19').getTime();
const nowArb = fc.oneof(
  fc.integer({ min: 0, max: 21 * 24 * 3600 - 1 }).map((s) => new Date(BASE + s * 1000)),
  fc.integer({ min: 0, max: 21 * 96 - 1 }).map((q) => new Date(BASE + q * STEP_MS)),
);

const scenarioArb = fc.record({
  hours: hoursArb,
  overrides: overridesArb,
  stayMinutes: fc.constantFrom(45, 60, 90, 100, 120, 150, 180),
  turnTimes: turnTimesArb,
  tables: tablesArb,
  now: nowArb,
  // Bookings as (table index, start in quarter hours from a day before now, length in 5 minutes).
  bookings: fc.array(
    fc.record({ table: fc.nat(), start: fc.integer({ min: 0, max: 16 * 96 }), length: fc.integer({ min: 6, max: 48 }), cancelled: fc.boolean() }),
    {
      maxLength: 60,
    },
  ),
  party: fc.integer({ min: 1, max: 11 }),
  dayPick: fc.nat({ max: 13 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

/** Bookings a table can really hold: the database refuses overlapping ones on a table. */
function bookingsOf(s: Scenario): { busy: Busy; cancelled: boolean }[] {
  const from = Math.floor(s.now.getTime() / STEP_MS) * STEP_MS - 24 * 3600_000;
  const kept: { busy: Busy; cancelled: boolean }[] = [];
  for (const b of s.bookings) {
    const table = s.tables[b.table % s.tables.length]!;
    const start = new Date(from + b.start * STEP_MS);
    const end = new Date(start.getTime() + b.length * 5 * MINUTE_MS);
    const clash = kept.some((k) => k.busy.tableId === table.id && k.busy.start < end && start < k.busy.end);
    if (!clash) kept.push({ busy: { tableId: table.id, start, end }, cancelled: b.cancelled });
  }
  return kept;
}

/** What a listing shows of the store: only there for the listing's passes (search, the groups after now). */
const FACTS = {
  name: '店',
  nameKana: 'みせ',
  genre: 'sushi' as const,
  areaId: 1,
  areaName: '渋谷',
  station: '渋谷駅',
  walkMinutes: 3,
  budgetMin: 1000,
  budgetMax: 3000,
  photo: null,
  lat: 35.66,
  lng: 139.7,
  tags: [],
};

/** A source over one in-memory store, reading as src/server/availability/source.ts does. */
function memorySource(state: () => StoreState): IndexSource {
  const read = (frame: Frame) => {
    const s = state();
    const busy = s.busy.filter((b) => b.start.getTime() < frame.endMs && b.end.getTime() > frame.startMs);
    const input: StoreInput = {
      hours: s.hours,
      overrides: s.overrides,
      stayMinutes: s.stayMinutes,
      turnTimes: s.turnTimes,
      tables: s.tables,
      held: busy.map((b) => heldCells(frame, b)),
    };
    return new Map([[1, { ...input, facts: FACTS }]]);
  };
  return { all: async (frame) => read(frame), some: async (frame) => read(frame) };
}

async function compare(index: AvailabilityIndex, state: StoreState, s: Scenario) {
  const view = (await index.view(s.now, [1]))!;
  const rolling = view.frame.date < businessDate(s.now);
  for (const party of [s.party, 1, 2, 4, 7]) {
    expect(view.bookableNow(1, party)).toEqual(bookableNow(state, party, s.now));
    expect(view.isBookableNow(1, party)).toBe(bookableNow(state, party, s.now).nextSlots.length > 0);
    // The listing's totals come from counts kept with the masks, store by store as re-reads are applied.
    const bookable = bookableNow(state, party, s.now).nextSlots.length > 0 ? 1 : 0;
    expect(view.search({ party, start: 0, count: 1 }).total).toBe(bookable);
    expect(view.search({ party, area: FACTS.areaId, genre: FACTS.genre, start: 0, count: 0 }).total).toBe(bookable);
    expect(view.search({ party, area: FACTS.areaId + 1, start: 0, count: 1 }).total).toBe(0);
  }
  expect(view.storesPerArea()).toEqual(new Map([[FACTS.areaId, 1]]));
  const dates = bookableDates(s.now);
  for (const date of [dates[0]!, dates[1]!, dates[s.dayPick]!, dates[13]!]) {
    const got = view.daySlots(1, date, s.party);
    // Just after 05:00 the old frame still answers while the new one is read; the last days are
    // not in it yet (null: the caller reads those from the database).
    if (got === null && rolling && date > bookableDates(new Date(view.frame.startMs))[13]!) continue;
    expect(got).toEqual(slotsForDate(state, s.party, date, s.now));
  }
  if (!rolling) {
    // The groups after now: a store not bookable now is later today or another day by its first free start.
    const now = bookableNow(state, s.party, s.now).nextSlots.length > 0;
    const first = dates.flatMap((d) => slotsForDate(state, s.party, d, s.now)).find((slot) => slot.freeTables > 0);
    const { later, another } = view.beyond({ party: s.party }, { later: 1, another: 1 });
    const expected = now || !first ? null : { id: 1, startMs: first.start.getTime() };
    const today = first !== undefined && first.start < businessDayRange(dates[0]!).end;
    expect(later.items).toEqual(expected && today ? [expected] : []);
    expect(another.items).toEqual(expected && !today ? [expected] : []);
  }
  if (rolling) {
    await index.build(s.now);
    await compare(index, state, s);
  }
}

const silent = { log: () => {} };

describe('availability index against the rules', () => {
  it('answers bookable-now and a day’s slots as the rules do, before and after cancellations and one-off days', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const all = bookingsOf(s);
        let state: StoreState = {
          hours: s.hours,
          overrides: [],
          turnTimes: s.turnTimes,
          stayMinutes: s.stayMinutes,
          tables: s.tables,
          busy: all.map((b) => b.busy),
        };
        const index = new AvailabilityIndex(
          memorySource(() => state),
          silent,
        );
        await compare(index, state, s);
        state = { ...state, busy: all.filter((b) => !b.cancelled).map((b) => b.busy) };
        await index.refresh([1]);
        await compare(index, state, s);
        // The store closes days or changes their hours: one re-read and the index agrees again.
        state = { ...state, overrides: s.overrides };
        await index.refresh([1]);
        await compare(index, state, s);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps answering as the clock moves through marks and business days', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.array(fc.integer({ min: 1, max: 40 * 60 }), { minLength: 1, maxLength: 6 }), async (s, steps) => {
        const state: StoreState = {
          hours: s.hours,
          overrides: s.overrides,
          turnTimes: s.turnTimes,
          stayMinutes: s.stayMinutes,
          tables: s.tables,
          busy: bookingsOf(s).map((b) => b.busy),
        };
        const index = new AvailabilityIndex(
          memorySource(() => state),
          silent,
        );
        let now = s.now;
        for (const minutes of steps) {
          now = new Date(now.getTime() + minutes * MINUTE_MS);
          await compare(index, state, { ...s, now });
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('availability index when changes may go unheard', () => {
  it('answers nothing while suspended, and after a resync shows what changed meanwhile', async () => {
    const now = new Date('2026-11-20T20:07:00+09:00');
    const tables: TableInfo[] = [{ id: 1, kind: 'counter', minParty: 1, maxParty: 2, online: true }];
    const hours: WeeklyHours[] = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 0, closesMin: 1440 }));
    let state: StoreState = { hours, overrides: [], turnTimes: [], stayMinutes: 120, tables, busy: [] };
    const index = new AvailabilityIndex(
      memorySource(() => state),
      { ...silent, clock: () => now },
    );
    expect((await index.view())!.bookableNow(1, 2)?.freeTables).toBe(1);

    index.suspend('listen_lost');
    expect(await index.view()).toBeNull();
    // Booked elsewhere while this instance heard nothing.
    state = { ...state, busy: [{ tableId: 1, start: new Date('2026-11-20T20:15:00+09:00'), end: new Date('2026-11-20T22:15:00+09:00') }] };
    expect(await index.view()).toBeNull();

    await index.resync('listen_back');
    const view = (await index.view())!;
    // The one table is held through the next hour: nothing to offer, as the rules say.
    expect(view.bookableNow(1, 2)).toEqual({ nextSlots: [], freeTables: 0 });
    expect(view.bookableNow(1, 2)).toEqual(bookableNow(state, 2, now));
  });
});

describe('the groups after now, kept per set of masks', () => {
  it('keeps at most its bound of pages, answers alike for the ones it forgot, and forgets them all when a store is re-read', async () => {
    const now = new Date('2026-11-20T20:07:00+09:00');
    const tables: TableInfo[] = [{ id: 1, kind: 'counter', minParty: 1, maxParty: 2, online: true }];
    const hours: WeeklyHours[] = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 0, closesMin: 1440 }));
    // The one table is held through the next hour: the store is in the group "later today".
    const held: Busy = { tableId: 1, start: new Date('2026-11-20T20:00:00+09:00'), end: new Date('2026-11-20T21:30:00+09:00') };
    let state: StoreState = { hours, overrides: [], turnTimes: [], stayMinutes: 120, tables, busy: [held] };
    const index = new AvailabilityIndex(
      memorySource(() => state),
      { ...silent, clock: () => now },
    );
    const view = (await index.view())!;
    // Distinct filters, as requests could ask for: FACTS' budget is 1,000–3,000 yen.
    const ask = (budgetMin: number) => view.beyond({ party: 2, budgetMin }, { later: 20, another: 20 });
    const later = [{ id: 1, startMs: new Date('2026-11-20T21:30:00+09:00').getTime() }];
    for (let yen = 0; yen < 4 * BEYOND_KEPT; yen++) {
      const found = ask(yen * 100);
      expect(found.later).toEqual(yen * 100 <= 3000 ? { items: later, total: 1 } : { items: [], total: 0 });
      expect(index.keptBeyondPages()).toBeLessThanOrEqual(BEYOND_KEPT);
    }
    expect(index.keptBeyondPages()).toBe(BEYOND_KEPT);
    // Forgotten, found again alike.
    expect(ask(0).later).toEqual({ items: later, total: 1 });
    // The booking is cancelled: the store is bookable now, and no group kept says otherwise.
    state = { ...state, busy: [] };
    await index.refresh([1]);
    expect(index.keptBeyondPages()).toBe(0);
    expect((await index.view())!.beyond({ party: 2, budgetMin: 0 }, { later: 20, another: 20 }).later).toEqual({ items: [], total: 0 });
  });
});
