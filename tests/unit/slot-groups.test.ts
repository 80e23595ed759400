import { describe, expect, it } from 'vitest';
import { formatTime, tokyoInstant } from '../../src/lib/datetime';
import { FOLDED_GROUPS_MAX, groupLabel, groupStarts, SLOT_GROUP_THRESHOLD } from '../../src/lib/slotGroups';
import { translatorFor } from '../../src/i18n';

const ja = translatorFor('ja');
const day = '2026-11-26';
/** Every 15 minutes from `from` to `to` (minutes after the day's midnight, past 24:00 for after midnight). */
const starts = (from: number, to: number) => Array.from({ length: (to - from) / 15 }, (_, i) => tokyoInstant(day, from + i * 15).getTime());
const at = (minutes: number) => tokyoInstant(day, minutes).getTime();

describe("a long day's starts, folded by hour", () => {
  it("folds a 24-hour store's whole later day by two hours, so its summaries fit one screen", () => {
    const whole = starts(5 * 60, 29 * 60); // 5:00 to 翌4:45: 96 starts
    const groups = groupStarts(whole, (s) => s, at(-12 * 60)); // seen the day before
    expect(groups[0]).toMatchObject({ kind: 'first' });
    expect(groups[0]!.items).toHaveLength(4);
    const folded = groups.slice(1);
    expect(folded.length).toBeLessThanOrEqual(FOLDED_GROUPS_MAX);
    expect(folded.map((g) => groupLabel(g, { day, t: ja }))).toEqual([
      '6:00〜（8）',
      '8:00〜（8）',
      '10:00〜（8）',
      '12:00〜（8）',
      '14:00〜（8）',
      '16:00〜（8）',
      '18:00〜（8）',
      '20:00〜（8）',
      '22:00〜（8）',
      '翌0:00〜（8）',
      '翌2:00〜（8）',
      '翌4:00〜（4）',
    ]);
    // Every start is in exactly one group, in order.
    expect(groups.flatMap((g) => g.items)).toEqual(whole);
  });

  it("heads a two-hour group the open hour began by its first start's hour (9:00〜, not 8:00〜 again)", () => {
    const rest = starts(8 * 60, 29 * 60); // 8:00 to 翌4:45 at 7:52: the open hour is 8:00–8:45
    const groups = groupStarts(rest, (s) => s, at(7 * 60 + 52));
    expect(groups[0]).toMatchObject({ kind: 'next' });
    expect(groupLabel(groups[1]!, { day, t: ja })).toBe('9:00〜（4）');
    expect(groupLabel(groups[2]!, { day, t: ja })).toBe('10:00〜（8）');
    expect(groups.flatMap((g) => g.items)).toEqual(rest);
  });

  it('keeps folding by the hour while the hours left fit (today from 11:50: 16 summaries)', () => {
    const rest = starts(12 * 60, 29 * 60);
    const folded = groupStarts(rest, (s) => s, at(11 * 60 + 50)).slice(1);
    expect(folded).toHaveLength(FOLDED_GROUPS_MAX);
    expect(folded.every((g) => g.items.length === 4)).toBe(true);
  });

  it('keeps a short day as one list', () => {
    const short = starts(18 * 60, 21 * 60);
    expect(short).toHaveLength(SLOT_GROUP_THRESHOLD);
    expect(groupStarts(short, (s) => s, at(17 * 60)).map((g) => g.kind)).toEqual(['all']);
  });

  it('a 24-hour store at 23:50: the next 60 minutes open, then each hour of the night under 翌', () => {
    const night = starts(24 * 60, 29 * 60); // 翌0:00 to 翌4:45, what is left of the business day
    const groups = groupStarts(night, (s) => s, at(23 * 60 + 50));
    expect(groups[0]).toMatchObject({ kind: 'next' });
    expect(groups[0]!.items.map((s) => formatTime(new Date(s), { day, t: ja }))).toEqual(['翌0:00', '翌0:15', '翌0:30', '翌0:45']);
    expect(groups.slice(1).map((g) => `${g.kind} ${formatTime(new Date(g.from), { day, t: ja })} ${g.items.length}`)).toEqual([
      'hour 翌1:00 4',
      'hour 翌2:00 4',
      'hour 翌3:00 4',
      'hour 翌4:00 4',
    ]);
    // Nothing lost or repeated.
    expect(groups.flatMap((g) => g.items)).toEqual(night);
  });

  it('a whole day ahead: its first hour open, not called "the next 60 minutes"', () => {
    const all = starts(5 * 60, 29 * 60);
    const groups = groupStarts(all, (s) => s, at(-60));
    expect(all).toHaveLength(96);
    expect(groups[0]).toMatchObject({ kind: 'first', from: at(5 * 60) });
    expect(groups[0]!.items).toHaveLength(4);
    // 23 hours left: folded by two hours (FOLDED_GROUPS_MAX), the last one short.
    expect(groups).toHaveLength(13);
    expect(groups.slice(1, -1).every((g) => g.items.length === 8)).toBe(true);
  });

  it('an open hour that starts mid-hour runs 60 minutes from its first start; the next hour group takes the rest', () => {
    const from = starts(21 * 60 + 45, 25 * 60);
    const groups = groupStarts(from, (s) => s, at(21 * 60 + 40));
    expect(groups[0]!.items.map((s) => formatTime(new Date(s), { day, t: ja }))).toEqual(['21:45', '22:00', '22:15', '22:30']);
    expect(groups[1]!.items.map((s) => formatTime(new Date(s), { day, t: ja }))).toEqual(['22:45']);
    expect(formatTime(new Date(groups[2]!.from), { day, t: ja })).toBe('23:00');
  });

  it('headings read as the store page and the booking form write them: the next hour, a first hour, each later hour with its count under 翌', () => {
    const label = (now: number, all: number[]) => groupStarts(all, (s) => s, now).map((g) => groupLabel(g, { day, t: ja }));
    expect(label(at(23 * 60 + 50), starts(24 * 60, 28 * 60))).toEqual(['これから1時間', '翌1:00〜（4）', '翌2:00〜（4）', '翌3:00〜（4）']);
    const ahead = label(at(-60), starts(5 * 60, 29 * 60));
    expect(ahead[0]).toBe('5:00から');
    expect(ahead[1]).toBe('6:00〜（8）');
    expect(ahead.at(-1)).toBe('翌4:00〜（4）');
    expect(groupLabel({ kind: 'hour', from: at(20 * 60), items: [1] }, { day, t: translatorFor('en') })).toBe('From 20:00 (1)');
  });
});
