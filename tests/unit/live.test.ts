import { describe, expect, it } from 'vitest';
import { availabilityData, formatEventId, markEpoch, parseEventId, streamQuerySchema } from '../../src/server/live';
import type { StoreState } from '../../src/server/availability';

const at = (iso: string) => new Date(iso);

describe('live stream helpers', () => {
  it('event ids round-trip, and anything else is no resume', () => {
    expect(parseEventId(formatEventId(123, 1994733))).toEqual({ cursor: 123, epoch: 1994733 });
    for (const bad of [null, undefined, '', '12', 'a-b', '1-2-3', '-1-2', `${'9'.repeat(16)}-1`]) expect(parseEventId(bad)).toBeNull();
  });

  it('the mark epoch changes exactly when the set of next 15-minute marks does', () => {
    // 21:00:00 JST still offers 21:00; a millisecond later it no longer does.
    expect(markEpoch(at('2026-11-21T21:00:00+09:00'))).toBe(markEpoch(at('2026-11-21T20:45:00.001+09:00')));
    expect(markEpoch(at('2026-11-21T21:00:00.001+09:00'))).toBe(markEpoch(at('2026-11-21T21:14:59+09:00')));
    expect(markEpoch(at('2026-11-21T21:00:00.001+09:00'))).toBe(markEpoch(at('2026-11-21T21:00:00+09:00')) + 1);
  });

  it('an event carries the free tables at the first bookable start and the starts in Tokyo time', () => {
    const store: StoreState = {
      hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 0, closesMin: 1440 })),
      overrides: [],
      turnTimes: [],
      stayMinutes: 120,
      tables: [
        { id: 1, kind: 'table', minParty: 1, maxParty: 2, online: true },
        { id: 2, kind: 'table', minParty: 2, maxParty: 4, online: true },
      ],
      busy: [{ tableId: 1, start: at('2026-11-21T20:00:00+09:00'), end: at('2026-11-21T21:15:00+09:00') }],
    };
    const data = availabilityData(7, store, 2, at('2026-11-21T20:50:00+09:00'));
    expect(data).toEqual({
      store_id: 7,
      free_tables: 1,
      next_slots: ['2026-11-21T21:00:00+09:00', '2026-11-21T21:15:00+09:00', '2026-11-21T21:30:00+09:00', '2026-11-21T21:45:00+09:00'],
    });
    expect(availabilityData(7, store, 5, at('2026-11-21T20:50:00+09:00'))).toEqual({ store_id: 7, free_tables: 0, next_slots: [] });
  });

  it('the query takes up to 50 numeric store ids (duplicates count once) and a party of 1 to 20', () => {
    expect(streamQuerySchema.parse({ stores: '3,1,3' })).toEqual({ stores: [3, 1], party: 2 });
    expect(streamQuerySchema.safeParse({ stores: Array.from({ length: 50 }, (_, i) => i + 1).join(','), party: '20' }).success).toBe(true);
    for (const bad of [
      {},
      { stores: '' },
      { stores: '1, 2' },
      { stores: '0' },
      { stores: '99999999999' },
      { stores: Array.from({ length: 51 }, (_, i) => i + 1).join(',') },
      { stores: '1', party: '21' },
      { stores: '1', party: '1.5' },
    ]) {
      expect(streamQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
