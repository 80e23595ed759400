/**
 * Time in Sugu is always Asia/Tokyo, whatever the server's or the browser's zone. Japan keeps no
 * daylight saving, so Tokyo is UTC+9 all year and the arithmetic below can use a fixed offset.
 */
export const TOKYO = 'Asia/Tokyo';
const OFFSET_MS = 9 * 60 * 60 * 1000;
export const MINUTE_MS = 60_000;
export const DAY_MINUTES = 24 * 60;

export interface TokyoParts {
  /** YYYY-MM-DD */
  date: string;
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday */
  weekday: number;
  /** Minutes since the Tokyo midnight that began this day. */
  minutes: number;
}

/** @example tokyoParts(new Date('2026-11-21T12:45:00Z')).minutes // 21 * 60 + 45 */
export function tokyoParts(at: Date): TokyoParts {
  const shifted = new Date(at.getTime() + OFFSET_MS);
  const year = shifted.getUTCFullYear();
  const month = shifted.getUTCMonth() + 1;
  const day = shifted.getUTCDate();
  return {
    date: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    year,
    month,
    day,
    weekday: shifted.getUTCDay(),
    minutes: shifted.getUTCHours() * 60 + shifted.getUTCMinutes(),
  };
}

/** The instant that is `minutes` after Tokyo midnight of `date` (YYYY-MM-DD); minutes may exceed a day. */
export function tokyoInstant(date: string, minutes = 0): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - OFFSET_MS + minutes * MINUTE_MS);
}

/** YYYY-MM-DD of the Tokyo day `days` after the one containing `at`. */
export function addTokyoDays(date: string, days: number): string {
  return tokyoParts(new Date(tokyoInstant(date).getTime() + days * DAY_MINUTES * MINUTE_MS)).date;
}

export function isValidDateString(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return tokyoParts(tokyoInstant(value)).date === value;
}

/** ISO 8601 with the Tokyo offset, as the API speaks: `2026-11-21T21:45:00+09:00`. */
export function toTokyoIso(at: Date): string {
  const shifted = new Date(at.getTime() + OFFSET_MS);
  return shifted.toISOString().replace(/\.\d{3}Z$/, '+09:00');
}

/** `21:45` */
export function formatTime(at: Date): string {
  const { minutes } = tokyoParts(at);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Formatters per style and locale: building one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: 'date' | 'day', locale: string): Intl.DateTimeFormat {
  const key = `${style}:${locale}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = style === 'date' ? { dateStyle: 'long' } : { month: 'short', day: 'numeric', weekday: 'short' };
    formatters.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone: TOKYO })));
  }
  return f;
}

/** A long date in the reader's language: `2026年11月21日` in Japanese. */
export function formatDate(at: Date, locale: string): string {
  return formatter('date', locale).format(at);
}

/** Month, day and weekday: `11月21日(土)` in Japanese, `Sat, Nov 21` in English. */
export function formatDay(at: Date, locale: string): string {
  if (locale === 'ja') {
    const p = tokyoParts(at);
    return `${p.month}月${p.day}日(${'日月火水木金土'[p.weekday]})`;
  }
  return formatter('day', locale).format(at);
}

/** `11月21日(土) 21:45〜23:45` */
export function formatStay(start: Date, end: Date, locale: string): string {
  return `${formatDay(start, locale)} ${formatTime(start)}${locale === 'ja' ? '〜' : '–'}${formatTime(end)}`;
}
