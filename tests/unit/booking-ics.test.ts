import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldIcsLine } from '../../src/lib/ics';

describe('.ics for "add to calendar"', () => {
  const ics = buildIcs({
    uid: 'SG-ABC234@sugu.jp',
    start: new Date('2026-11-21T12:45:00Z'),
    end: new Date('2026-11-21T14:45:00Z'),
    summary: '居酒屋 とりあえず, 渋谷店; 二次会',
    description: '予約番号: SG-ABC234\n人数: 4名',
    location: '東京都渋谷区\\道玄坂',
    stamp: new Date('2026-11-20T11:00:00Z'),
  });

  it('writes Tokyo wall-clock times with the zone included', () => {
    expect(ics).toContain('DTSTART;TZID=Asia/Tokyo:20261121T214500\r\n');
    expect(ics).toContain('DTEND;TZID=Asia/Tokyo:20261121T234500\r\n');
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo');
    expect(ics).toContain('TZOFFSETTO:+0900');
    expect(ics).toContain('DTSTAMP:20261120T110000Z');
  });

  it('escapes commas, semicolons, backslashes and newlines', () => {
    expect(ics).toContain('SUMMARY:居酒屋 とりあえず\\, 渋谷店\\; 二次会');
    expect(ics).toContain('LOCATION:東京都渋谷区\\\\道玄坂');
    expect(ics.replace(/\r\n /g, '')).toContain('DESCRIPTION:予約番号: SG-ABC234\\n人数: 4名');
    expect(escapeIcsText('a\r\nb')).toBe('a\\nb');
  });

  it('uses CRLF and folds long lines at 75 octets without breaking characters', () => {
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.split('\r\n').every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
    const folded = foldIcsLine('SUMMARY:' + 'あ'.repeat(60));
    expect(folded.split('\r\n ').join('')).toBe('SUMMARY:' + 'あ'.repeat(60));
  });
});
