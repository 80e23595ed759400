/**
 * Which starts a store's change frees for a watch (gridFreedStarts, as the watch matcher reads the
 * availability index's grids): a start counts when a table that fits the party is free after the
 * change and was not before — per table, not per start. When two tables free in quick succession,
 * the grid before the second change may not know yet that the first was held for a watcher: the
 * start then looks free before and after, yet the second table is one more watcher's offer.
 */
import { describe, expect, it } from 'vitest';
import { tokyoInstant } from '../../src/lib/datetime';
import { buildStoreGrid, frameFor, gridFreedStarts, heldCells, type StoreInput } from '../../src/server/availability/grid';
import type { TableInfo } from '../../src/server/availability/rules';

const DAY = '2026-12-01';
const at = (hh: number, mm = 0) => tokyoInstant(DAY, hh * 60 + mm);
const frame = frameFor(at(12));
const tables: TableInfo[] = [
  { id: 1, kind: 'table', minParty: 1, maxParty: 4, online: true },
  { id: 2, kind: 'table', minParty: 1, maxParty: 4, online: true },
];
/** Open around the clock, two-hour stays; `busy`: the tables held from 20:30 to 22:30. */
const grid = (busy: number[]) => {
  const input: StoreInput = {
    hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 0, closesMin: 1440 })),
    overrides: [],
    stayMinutes: 120,
    turnTimes: [],
    tables,
    held: busy.map((tableId) => heldCells(frame, { tableId, start: at(20, 30), end: at(22, 30) })),
  };
  return buildStoreGrid(frame, input);
};
/** The watched window: the one start 20:30, for two. */
const freed = (before: number[] | undefined, after: number[]) =>
  gridFreedStarts(grid(after), frame, before && grid(before), frame, 2, at(20, 30).getTime(), at(20, 30).getTime());

describe('starts a change frees for a watch', () => {
  it('a full start that gains a table is freed; one that stays full, or loses a table, is not', () => {
    expect(freed([1, 2], [2])).toEqual([at(20, 30).getTime()]);
    expect(freed([1, 2], [1, 2])).toEqual([]);
    expect(freed([2], [1, 2])).toEqual([]);
    // Without an earlier grid, every free start.
    expect(freed(undefined, [2])).toEqual([at(20, 30).getTime()]);
    expect(freed(undefined, [1, 2])).toEqual([]);
  });

  it('a start free before and after is freed when another table is free now: the first held, the second given back', () => {
    // Before: table 1 free (its hold not yet in that grid), table 2 taken. After: table 1 held, table 2 free.
    expect(freed([2], [1])).toEqual([at(20, 30).getTime()]);
    // The same table free before and after: nothing new.
    expect(freed([2], [2])).toEqual([]);
    // Both free after, one before: the second table is new.
    expect(freed([2], [])).toEqual([at(20, 30).getTime()]);
  });

  it('compares instant by instant across two frames (a new business day)', () => {
    const next = frameFor(at(12 + 24));
    const before = buildStoreGrid(next, {
      hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opensMin: 0, closesMin: 1440 })),
      overrides: [],
      stayMinutes: 120,
      turnTimes: [],
      tables,
      held: [],
    });
    // The start lies in the earlier frame only: nothing to compare with, so a free start counts.
    expect(gridFreedStarts(grid([2]), frame, before, next, 2, at(20, 30).getTime(), at(20, 30).getTime())).toEqual([at(20, 30).getTime()]);
  });
});
