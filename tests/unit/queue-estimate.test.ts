/**
 * The 順番待ち's wait estimate: the parties ahead are seated first at the smallest fitting table,
 * bookings keep their tables, a party no table fits or a store closing before the stay ends gets
 * no estimate, and the answer is a range in 5-minute steps, never a single minute.
 */
import { describe, expect, it } from 'vitest';
import { estimateWait, waitRange } from '../../src/server/queue/estimate';
import type { Busy, StoreState } from '../../src/server/availability/rules';
import { canMove, QUEUE_STATES, QUEUE_TRANSITIONS } from '../../src/lib/contract/queue';

const now = new Date('2026-11-20T18:00:00+09:00');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const busy = (tableId: number, from: number, to: number): Busy => ({ tableId, start: at(from), end: at(to) });

/** Open 11:00–23:00 every day; two tables for two and one for four, all taken now. */
function store(extra: Busy[] = [], closesMin = 23 * 60): StoreState {
  return {
    hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 11 * 60, closesMin })),
    overrides: [],
    stayMinutes: 90,
    turnTimes: [{ party: 2, minutes: 60 }],
    tables: [
      { id: 1, kind: 'table', minParty: 1, maxParty: 2, online: true },
      { id: 2, kind: 'table', minParty: 1, maxParty: 2, online: true },
      { id: 3, kind: 'table', minParty: 1, maxParty: 4, online: false },
    ],
    busy: [busy(1, -60, 30), busy(2, -30, 45), busy(3, -10, 90), ...extra],
  };
}

describe('estimateWait', () => {
  it('is the first table to free for the party, as a range around it', () => {
    // Table 1 frees in 30 minutes: 30 × 0.75 = 22.5 → 20, 30 × 1.25 = 37.5 → 40.
    expect(estimateWait(store(), 2, [], now)).toEqual({ min_minutes: 20, max_minutes: 40 });
  });

  it('seats the parties ahead first, each for their own turn time', () => {
    // The party ahead takes table 1 at +30; this one gets table 2 at +45.
    expect(estimateWait(store(), 2, [2], now)).toEqual({ min_minutes: 30, max_minutes: 60 });
    // Two ahead hold both tables for two: the walk-in-only four-top frees at +90.
    expect(estimateWait(store(), 2, [2, 2], now)).toEqual({ min_minutes: 65, max_minutes: 115 });
    // A party of four ahead waits for the four-top only, so it does not delay a party of two.
    expect(estimateWait(store(), 2, [4], now)).toEqual({ min_minutes: 20, max_minutes: 40 });
  });

  it('keeps booked tables for their bookings', () => {
    // Table 1 frees at +30 but is booked from +60: an hour there would overlap, so table 2 at +45.
    expect(estimateWait(store([busy(1, 60, 180)]), 2, [], now)).toEqual({ min_minutes: 30, max_minutes: 60 });
  });

  it('has no estimate when no table fits or the store closes before a stay could end', () => {
    expect(estimateWait(store(), 5, [], now)).toBeNull();
    // Closing at 19:00: table 1 frees at 18:30, too late for an hour's stay.
    expect(estimateWait(store([], 19 * 60), 2, [], now)).toBeNull();
  });

  it('never shows a single minute', () => {
    expect(waitRange(0)).toEqual({ min_minutes: 0, max_minutes: 10 });
    expect(waitRange(12)).toEqual({ min_minutes: 5, max_minutes: 15 });
  });
});

describe('queue states', () => {
  it('are waiting → called → seated, no-show, canceled or expired, and nothing leaves a final state', () => {
    const moves = QUEUE_STATES.flatMap((from) => QUEUE_STATES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(moves).toEqual([
      'waiting→called',
      'waiting→seated',
      'waiting→no_show',
      'waiting→canceled',
      'called→seated',
      'called→no_show',
      'called→canceled',
      'called→expired',
    ]);
    expect(Object.keys(QUEUE_TRANSITIONS)).toEqual([...QUEUE_STATES]);
  });
});
