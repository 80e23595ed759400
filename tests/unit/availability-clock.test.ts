/**
 * The index as the clock moves, with a controlled clock: past a 15-minute mark the next starts
 * move on with no rebuild and no past start; at 05:00 the business day rolls over, the index is
 * read again for the new day, and the new last bookable day is there.
 */
import { describe, expect, it } from 'vitest';
import { formatTime, tokyoInstant } from '../../src/lib/datetime';
import { translatorFor } from '../../src/i18n';
import { AvailabilityIndex, type IndexSource } from '../../src/server/availability/engine';
import { heldCells, type Frame } from '../../src/server/availability/grid';
import { bookableDates, businessDate, slotsForDate, type StoreState } from '../../src/server/availability/rules';
import { controlledClock } from '../helpers/clock';

// Times as the app writes them: past midnight under the business day (翌0:15).
const ja = translatorFor('ja');

const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 17 * 60, closesMin: 26 * 60 }));
const state: StoreState = {
  hours: everyDay,
  overrides: [],
  turnTimes: [],
  stayMinutes: 120,
  tables: [
    { id: 1, kind: 'counter', minParty: 1, maxParty: 2, online: true },
    { id: 2, kind: 'table', minParty: 2, maxParty: 4, online: true },
  ],
  // The table for four is held 20:30–22:30 on Friday 2026-11-20.
  busy: [{ tableId: 2, start: tokyoInstant('2026-11-20', 20 * 60 + 30), end: tokyoInstant('2026-11-20', 22 * 60 + 30) }],
};

function counted(): IndexSource & { builds: number } {
  const read = (frame: Frame) => new Map([[7, { ...state, held: state.busy.map((b) => heldCells(frame, b)) }]]);
  const source = { builds: 0, all: async (frame: Frame) => (source.builds++, read(frame)), some: async (frame: Frame) => read(frame) };
  return source;
}

const times = (slots: { start: Date }[] | undefined) => (slots ?? []).map((s) => formatTime(s.start, ja));

describe('availability index and the clock', () => {
  it('moves the next starts on at each 15-minute mark, never offering a past one, without a rebuild', async () => {
    const clock = controlledClock('2026-11-20T20:07:00+09:00');
    const source = counted();
    const index = new AvailabilityIndex(source, { clock: clock.now, log: () => {} });

    const at2007 = (await index.view())!;
    expect(times(at2007.bookableNow(7, 2)?.nextSlots)).toEqual(['20:15', '20:30', '20:45', '21:00']);
    // Party of four: the only table for four is held from 20:30, so a stay must start by 18:30 or after 22:30.
    expect(at2007.bookableNow(7, 4)).toEqual({ nextSlots: [], freeTables: 0 });

    clock.advance(8); // 20:15 exactly: the mark itself is still offered
    expect(times((await index.view())!.bookableNow(7, 2)?.nextSlots)).toEqual(['20:15', '20:30', '20:45', '21:00', '21:15']);
    clock.advance(1); // 20:16
    const at2016 = (await index.view())!;
    expect(times(at2016.bookableNow(7, 2)?.nextSlots)).toEqual(['20:30', '20:45', '21:00', '21:15']);
    expect(times(at2016.daySlots(7, '2026-11-20', 2) ?? [])[0]).toBe('20:30');
    expect(at2016.daySlots(7, '2026-11-20', 2)).toEqual(slotsForDate(state, 2, '2026-11-20', clock.now()));

    // Past midnight the night still belongs to Friday's business day, up to the last start at 00:00.
    clock.set('2026-11-21T00:05:00+09:00');
    const night = (await index.view())!;
    expect(businessDate(clock.now())).toBe('2026-11-20');
    expect(night.bookableNow(7, 2)).toEqual({ nextSlots: [], freeTables: 0 });
    expect(night.daySlots(7, '2026-11-20', 2)).toEqual([]);
    expect(source.builds).toBe(1);
  });

  it('rolls over at 05:00: read again for the new business day, with the new last day bookable', async () => {
    const clock = controlledClock('2026-11-21T04:59:00+09:00');
    const source = counted();
    const index = new AvailabilityIndex(source, { clock: clock.now, log: () => {} });
    const before = (await index.view())!;
    expect(before.frame.date).toBe('2026-11-20');
    const lastBefore = bookableDates(clock.now())[13]!;
    expect(lastBefore).toBe('2026-12-03');
    expect(before.daySlots(7, lastBefore, 2)).toEqual(slotsForDate(state, 2, lastBefore, clock.now()));

    clock.advance(1); // 05:00: Saturday's business day begins
    const during = (await index.view())!;
    // The old frame answers while the new one is read; the next hour is in it.
    expect(during.bookableNow(7, 2)).toEqual({ nextSlots: [], freeTables: 0 });
    await index.build();
    expect(source.builds).toBe(2);

    const after = (await index.view())!;
    expect(after.frame.date).toBe('2026-11-21');
    const dates = bookableDates(clock.now());
    expect(dates[0]).toBe('2026-11-21');
    expect(dates[13]).toBe('2026-12-04');
    for (const date of [dates[0]!, dates[13]!]) {
      const slots = after.daySlots(7, date, 2);
      expect(slots?.length).toBeGreaterThan(0);
      expect(slots).toEqual(slotsForDate(state, 2, date, clock.now()));
    }
    // Friday's business day is over: the index no longer holds it.
    expect(after.daySlots(7, '2026-11-20', 2)).toBeNull();
  });
});
