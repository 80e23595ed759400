/** Edges of the bookable-now rule not covered in availability-rules.test.ts, and the listing's query rules. */
import { describe, expect, it } from 'vitest';
import { formatTime, tokyoInstant } from '../../src/lib/datetime';
import { translatorFor } from '../../src/i18n';
import { bookableNow, type StoreState, type TableInfo, type WeeklyHours } from '../../src/server/availability/rules';
import { listQuerySchema } from '../../src/server/stores/query';
import { formatDistance } from '../../src/lib/distance';

// Times as the app writes them: past midnight under the business day (翌0:15).
const ja = translatorFor('ja');

const everyDay = (opensMin: number, closesMin: number): WeeklyHours[] => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin, closesMin }));
const tables: TableInfo[] = [
  { id: 1, kind: 'counter', minParty: 1, maxParty: 2, online: true },
  { id: 2, kind: 'private_room', minParty: 4, maxParty: 8, online: true },
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
// 2026-11-21 is a Saturday in Tokyo.
const at = (hhmm: string, date = '2026-11-21') => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return tokyoInstant(date, h * 60 + m);
};
const times = (s: StoreState, party: number, now: Date) => bookableNow(s, party, now).nextSlots.map((x) => formatTime(x.start, ja));

describe('bookable now: more edges', () => {
  it('includes the mark equal to now and the one exactly 60 minutes ahead', () => {
    expect(times(store(), 2, at('19:00'))).toEqual(['19:00', '19:15', '19:30', '19:45', '20:00']);
  });

  it('offers the last start whose stay ends exactly at closing, not one later', () => {
    expect(times(store(), 2, at('20:50'))).toEqual(['21:00']);
    expect(times(store({ stayMinutes: 125 }), 2, at('20:50'))).toEqual([]);
  });

  it('does not offer a stay across a break between lunch and dinner', () => {
    const split = store({ hours: [...everyDay(11 * 60 + 30, 15 * 60), ...everyDay(17 * 60, 23 * 60)], stayMinutes: 90 });
    expect(times(split, 2, at('13:10'))).toEqual(['13:15', '13:30']);
    expect(times(split, 2, at('16:10'))).toEqual(['17:00']);
  });

  it('keeps Saturday night open after midnight even when Sunday is a closed day', () => {
    const bar = store({ hours: [{ weekday: 6, opensMin: 19 * 60, closesMin: 28 * 60 }] }); // Sat 19:00 – Sun 04:00
    expect(times(bar, 2, at('01:50', '2026-11-22'))).toEqual(['翌2:00']);
    expect(times(bar, 2, at('20:00', '2026-11-22'))).toEqual([]); // Sunday evening: closed
  });

  it('is closed on a weekday without hours', () => {
    const noMonday = store({ hours: everyDay(17 * 60, 23 * 60).filter((h) => h.weekday !== 1) });
    expect(times(noMonday, 2, at('19:00', '2026-11-23'))).toEqual([]);
    expect(times(noMonday, 2, at('19:00', '2026-11-24')).length).toBeGreaterThan(0);
  });

  it('does not seat a party below a table minimum, nor above its maximum', () => {
    const roomOnly = store({ tables: [tables[1]!] });
    expect(times(roomOnly, 2, at('19:00'))).toEqual([]);
    expect(times(roomOnly, 4, at('19:00')).length).toBe(5);
    expect(times(roomOnly, 9, at('19:00'))).toEqual([]);
  });

  it('lets a booking that ends exactly at a start free the table for it (half-open periods)', () => {
    const busy = [{ tableId: 1, start: at('17:00'), end: at('19:30') }];
    expect(times(store({ busy }), 2, at('19:00'))).toEqual(['19:30', '19:45', '20:00']);
    expect(bookableNow(store({ busy }), 2, at('19:00')).freeTables).toBe(1);
  });
});

describe('listing query', () => {
  it('defaults party to 2 and page to 1, and treats empty form fields as not given', () => {
    expect(listQuerySchema.parse({})).toMatchObject({ party: 2, page: 1, per_page: 20 });
    expect(listQuerySchema.parse({ name: '  ', area: '', genre: '', party: '', lat: '', lng: '' })).toMatchObject({
      name: undefined,
      area: undefined,
      genre: undefined,
      party: 2,
    });
    expect(listQuerySchema.parse({ name: ' 焼肉 ', party: '4', area: '3' })).toMatchObject({ name: '焼肉', party: 4, area: 3 });
  });

  it('refuses party 0 or 21, latitude 200, a lone latitude, page -1 and a keyword over 100 characters', () => {
    for (const bad of [
      { party: '0' },
      { party: '21' },
      { party: '1.5' },
      { lat: '200', lng: '0' },
      { lat: '35' },
      { page: '-1' },
      { name: 'x'.repeat(101) },
      { genre: 'pizza' },
    ]) {
      expect(listQuerySchema.safeParse(bad).success, JSON.stringify(bad).slice(0, 40)).toBe(false);
    }
  });
});

describe('distance', () => {
  it('reads as metres under a kilometre, else kilometres', () => {
    expect(formatDistance(3)).toBe('10m');
    expect(formatDistance(348)).toBe('350m');
    expect(formatDistance(1234)).toBe('1.2km');
    expect(formatDistance(12_345)).toBe('12km');
  });
});
