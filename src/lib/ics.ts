import { toTokyoIso } from './datetime';

/**
 * A one-event iCalendar file (RFC 5545) for "add to calendar". Times are Tokyo wall-clock times
 * with `TZID=Asia/Tokyo` and the zone itself included (JST, no daylight saving), so calendars that
 * do not know the zone database still place the stay right; texts are escaped and long lines
 * folded so names with commas, semicolons or newlines survive.
 */
export interface IcsEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
  /** When the file was made (DTSTAMP). */
  stamp?: Date;
  /**
   * The event's revision (RFC 5545 SEQUENCE): a calendar replaces the event it holds under the same
   * UID only with a higher one, so every change of the booking must count up.
   */
  sequence?: number;
  /**
   * PUBLISH for a file to import (the download), REQUEST for the mail that books or changes, CANCEL
   * for the mail that cancels (RFC 5546). REQUEST and CANCEL name the organizer and the attendee.
   */
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  status?: 'CONFIRMED' | 'CANCELLED';
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
}

/** A parameter value (CN=…) quoted, with the characters a quoted value cannot hold dropped. */
const paramText = (value: string) => `"${value.replace(/["\r\n]/g, '')}"`;

/** Escapes a TEXT value: backslash, semicolon, comma and newlines. */
export function escapeIcsText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** `20261121T124500Z` (UTC, for DTSTAMP) */
export function icsDate(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Octets of one code point in UTF-8 (counted, not encoded: a booking's mail folds every line of its invitation). */
const utf8Length = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** Folds a content line at 75 octets without splitting a UTF-8 character. */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = utf8Length(ch.codePointAt(0)!);
    const limit = parts.length === 0 ? 75 : 74; // continuation lines start with a space
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** `20261121T214500`, Tokyo wall-clock time. */
export function icsTokyoTime(at: Date): string {
  return toTokyoIso(at).slice(0, 19).replace(/[-:]/g, '');
}

export function buildIcs(event: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sugu//すぐ予約//JA',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method ?? 'PUBLISH'}`,
    'X-WR-TIMEZONE:Asia/Tokyo',
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Tokyo',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:+0900',
    'TZOFFSETTO:+0900',
    'TZNAME:JST',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${escapeIcsText(event.uid)}`,
    `DTSTAMP:${icsDate(event.stamp ?? new Date())}`,
    `SEQUENCE:${event.sequence ?? 0}`,
    ...(event.status ? [`STATUS:${event.status}`] : []),
    ...(event.organizer ? [`ORGANIZER;CN=${paramText(event.organizer.name)}:mailto:${event.organizer.email}`] : []),
    ...(event.attendee ? [`ATTENDEE;CN=${paramText(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:${event.attendee.email}`] : []),
    `DTSTART;TZID=Asia/Tokyo:${icsTokyoTime(event.start)}`,
    `DTEND;TZID=Asia/Tokyo:${icsTokyoTime(event.end)}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeIcsText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeIcsText(event.description)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}
