import { describe, expect, it } from 'vitest';
import {
  addTokyoDays,
  businessDate,
  formatClock,
  formatDay,
  formatStay,
  formatTime,
  formatWhen,
  isValidDateString,
  timesUnder,
  tokyoInstant,
  tokyoParts,
  toTokyoIso,
} from '../../src/lib/datetime';
import { formatYen, formatYenRange } from '../../src/lib/format';
import { translatorFor } from '../../src/i18n';
import { fromDictionary } from '../../src/lib/contract/messages';

const ja = translatorFor('ja');
const en = translatorFor('en');

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
    expect(formatStay(start, new Date(start.getTime() + 120 * 60_000), 'ja', ja)).toBe('11月21日(土) 21:45〜23:45');
  });
});

describe('one way to write a time', () => {
  const day = '2026-11-21';
  it('writes hours without a leading zero', () => {
    expect(formatTime(tokyoInstant(day, 21 * 60 + 45), ja)).toBe('21:45');
    expect(formatTime(tokyoInstant(day, 9 * 60), ja)).toBe('9:00');
  });
  it('writes a time past midnight under its business day, which ends at 5:00', () => {
    // The cards' next-hour starts at 23:50: the same 翌0:15 as the day's grid and the form.
    expect(formatTime(tokyoInstant(day, 24 * 60 + 15), ja)).toBe('翌0:15');
    expect(formatTime(tokyoInstant(day, 28 * 60 + 45), ja)).toBe('翌4:45');
    expect(formatTime(tokyoInstant(day, 29 * 60), ja)).toBe('5:00');
    expect(formatTime(tokyoInstant(day, 24 * 60 + 15), en)).toBe('0:15 (+1)');
    expect(businessDate(tokyoInstant(day, 28 * 60 + 59))).toBe(day);
    expect(businessDate(tokyoInstant(day, 29 * 60))).toBe('2026-11-22');
  });
  it('writes a start past midnight as the next day of the date it sits under', () => {
    expect(formatTime(tokyoInstant(day, 23 * 60 + 45), { day, t: ja })).toBe('23:45');
    expect(formatTime(tokyoInstant(day, 24 * 60), { day, t: ja })).toBe('翌0:00');
    expect(formatTime(tokyoInstant(day, 24 * 60 + 15), { day, t: ja })).toBe('翌0:15');
    expect(formatTime(tokyoInstant(day, 24 * 60 + 15), { day, t: en })).toBe('0:15 (+1)');
    // The next calendar day on its own is not "the next day".
    expect(formatTime(tokyoInstant(day, 24 * 60 + 15), { day: '2026-11-22', t: ja })).toBe('0:15');
  });
  it('writes a day’s many times the same way from the API’s text, the day worked out once', () => {
    const time = timesUnder(day, ja);
    expect(time('2026-11-21T23:45:00+09:00')).toBe('23:45');
    expect(time('2026-11-22T00:15:00+09:00')).toBe('翌0:15');
    expect(time(tokyoInstant(day, 9 * 60))).toBe('9:00');
    expect(time(tokyoInstant(day, 28 * 60).getTime())).toBe('翌4:00');
  });
  it('writes opening hours the same way', () => {
    expect(formatClock(18 * 60, ja)).toBe('18:00');
    expect(formatClock(28 * 60, ja)).toBe('翌4:00');
    expect(formatClock(24 * 60, ja)).toBe('翌0:00');
    expect(formatClock(28 * 60 + 30, translatorFor('zh'))).toBe('次日4:30');
  });
  it('is the same in the browser, from the dictionary the page hands over', () => {
    const t = fromDictionary({ 'time.nextDay': ja('time.nextDay', { time: '{{time}}' }) });
    expect(formatTime(tokyoInstant(day, 25 * 60 + 30), { day, t })).toBe('翌1:30');
  });
  it('marks a stay that runs past midnight', () => {
    const start = tokyoInstant(day, 23 * 60 + 30);
    expect(formatStay(start, new Date(start.getTime() + 120 * 60_000), 'ja', ja)).toBe('11月21日(土) 23:30〜翌1:30');
  });
  it('writes a stay after midnight under its business day, with the calendar date beside it', () => {
    const late = tokyoInstant(day, 24 * 60 + 30);
    const end = new Date(late.getTime() + 120 * 60_000);
    expect(formatStay(late, end, 'ja', ja)).toBe('11月21日(土) 翌0:30〜翌2:30（11月22日(日)）');
    expect(formatStay(late, end, 'en', en)).toBe('Sat, Nov 21 0:30 (+1)–2:30 (+1) (early hours of Sun, Nov 22)');
    expect(formatWhen(late, 'ja', ja)).toBe('11月21日(土) 翌0:30（11月22日(日)）');
    expect(formatWhen(tokyoInstant(day, 21 * 60), 'ja', ja)).toBe('11月21日(土) 21:00');
    // In every language the marker and the calendar date are there.
    for (const code of ['zh', 'ko', 'es', 'fr', 'de', 'pt', 'ru', 'ar'] as const) {
      const t = translatorFor(code);
      const text = formatStay(late, end, code, t);
      expect(text).toContain(t('time.nextDay', { time: '0:30' }));
      expect(text).toContain(formatDay(late, code));
      expect(text.startsWith(formatDay(tokyoInstant(day, 12 * 60), code))).toBe(true);
    }
  });
  it('validates calendar dates', () => {
    expect(isValidDateString('2026-02-29')).toBe(false);
    expect(isValidDateString('2028-02-29')).toBe(true);
    expect(isValidDateString('2026-1-01')).toBe(false);
  });
  it('formats yen', () => {
    expect(formatYen(3000, 'ja')).toBe('¥3,000');
    expect(formatYenRange(3000, 5000, 'ja')).toBe('¥3,000〜¥5,000');
  });
});
