import { describe, expect, it } from 'vitest';
import { addTokyoDays, formatStay, isValidDateString, tokyoInstant, tokyoParts, toTokyoIso } from '../../src/lib/datetime';
import { formatYen, formatYenRange } from '../../src/lib/format';

describe('Asia/Tokyo time whatever the process zone', () => {
  it('reads the Tokyo day and minutes of an instant', () => {
    const p = tokyoParts(new Date('2026-11-21T15:30:00Z')); // 00:30 on the 22nd in Tokyo
    expect(p).toMatchObject({ date: '2026-11-22', weekday: 0, minutes: 30 });
  });
  it('builds instants from Tokyo dates, past midnight included', () => {
    expect(tokyoInstant('2026-11-21', 21 * 60 + 45).toISOString()).toBe('2026-11-21T12:45:00.000Z');
    expect(tokyoInstant('2026-11-21', 25 * 60).toISOString()).toBe('2026-11-21T16:00:00.000Z');
    expect(addTokyoDays('2026-12-31', 1)).toBe('2027-01-01');
  });
  it('speaks ISO with +09:00 and formats a stay in Japanese', () => {
    const start = tokyoInstant('2026-11-21', 21 * 60 + 45);
    expect(toTokyoIso(start)).toBe('2026-11-21T21:45:00+09:00');
    expect(formatStay(start, new Date(start.getTime() + 120 * 60_000), 'ja')).toBe('11月21日(土) 21:45〜23:45');
  });
  it('validates calendar dates', () => {
    expect(isValidDateString('2026-02-29')).toBe(false);
    expect(isValidDateString('2028-02-29')).toBe(true);
    expect(isValidDateString('2026-1-01')).toBe(false);
  });
  it('formats yen', () => {
    expect(formatYen(3000)).toBe('¥3,000');
    expect(formatYenRange(3000, 5000)).toBe('¥3,000〜¥5,000');
  });
});
