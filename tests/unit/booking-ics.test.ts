import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldIcsLine } from '../../src/lib/ics';
import { bookingUid } from '../../src/server/bookings/ics';

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
    const folded = foldIcsLine(`SUMMARY:${'あ'.repeat(60)}`);
    expect(folded.split('\r\n ').join('')).toBe(`SUMMARY:${'あ'.repeat(60)}`);
    // Two-, three- and four-octet characters (é, 酒, 🍶) each counted as UTF-8 counts them: every line full, none over.
    const mixed = `DESCRIPTION:${'é酒🍶a'.repeat(40)}`;
    const lines = foldIcsLine(mixed).split('\r\n');
    expect(lines.map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(mixed);
    const octets = lines.map((l) => new TextEncoder().encode(l).length);
    expect(octets.every((n) => n <= 75)).toBe(true);
    expect(octets.slice(0, -1).every((n) => n >= 72)).toBe(true);
  });
});

describe('.ics as a calendar invitation that updates', () => {
  const base = {
    uid: 'booking-12@sugu.jp',
    start: new Date('2026-11-21T12:45:00Z'),
    end: new Date('2026-11-21T14:45:00Z'),
    summary: '酒場',
    stamp: new Date('2026-11-20T11:00:00Z'),
  };
  const people = { organizer: { name: '酒場 "とりあえず"', email: 'no-reply@sugu.jp' }, attendee: { name: '山田 花子', email: 'hanako@example.jp' } };

  it('is a PUBLISH of revision 0 by default', () => {
    const ics = buildIcs(base);
    expect(ics).toContain('\r\nMETHOD:PUBLISH\r\n');
    expect(ics).toContain('\r\nSEQUENCE:0\r\n');
    expect(ics).not.toContain('ORGANIZER');
  });

  it('a REQUEST names the organizer and the attendee, with the revision as SEQUENCE', () => {
    const ics = buildIcs({ ...base, method: 'REQUEST', status: 'CONFIRMED', sequence: 3, ...people }).replace(/\r\n /g, '');
    expect(ics).toContain('\r\nMETHOD:REQUEST\r\n');
    expect(ics).toContain('\r\nSEQUENCE:3\r\nSTATUS:CONFIRMED\r\n');
    // A quote cannot be inside a quoted parameter value: dropped.
    expect(ics).toContain('\r\nORGANIZER;CN="酒場 とりあえず":mailto:no-reply@sugu.jp\r\n');
    expect(ics).toContain('\r\nATTENDEE;CN="山田 花子";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:hanako@example.jp\r\n');
  });

  it('a CANCEL keeps the UID and says CANCELLED', () => {
    const ics = buildIcs({ ...base, method: 'CANCEL', status: 'CANCELLED', sequence: 4, ...people });
    expect(ics).toContain('\r\nMETHOD:CANCEL\r\n');
    expect(ics).toContain('\r\nUID:booking-12@sugu.jp\r\n');
    expect(ics).toContain('\r\nSTATUS:CANCELLED\r\n');
  });
});

describe("a booking's UID", () => {
  it("is the booking id at the site's host: the same in every file about it, another booking's differs", () => {
    expect(bookingUid(12, 'https://sugu.jp')).toBe('booking-12@sugu.jp');
    expect(bookingUid(12, 'http://localhost:4321')).toBe('booking-12@localhost');
    expect(bookingUid(13, 'https://sugu.jp')).not.toBe(bookingUid(12, 'https://sugu.jp'));
  });
});
