import { BoundedCache } from './boundedCache';

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
  // `YYYY-MM-DDTHH:mm:ss` of `…sssZ`; a listing writes a few hundred of these per page.
  return `${shifted.toISOString().slice(0, 19)}+09:00`;
}

/**
 * A business day runs from 05:00 to 05:00 the next morning, so a bar's 1:00 start belongs to the
 * night it is part of (Friday night), as diners and restaurants in Japan count it. Availability,
 * the door's ledger and every time shown follow it.
 */
export const BUSINESS_DAY_START_MIN = 5 * 60;

/** The business day (YYYY-MM-DD) an instant belongs to. */
export function businessDate(at: Date): string {
  return tokyoParts(new Date(at.getTime() - BUSINESS_DAY_START_MIN * MINUTE_MS)).date;
}

/**
 * How the reader's language writes a time past midnight: `time.nextDay` (`翌{{time}}` in
 * Japanese, `{{time}} (+1)` in English) and, where a date is shown, `time.pastMidnight` adding the
 * calendar date. From i18next's `t` on the server or `fromDictionary` in the browser.
 */
export type NextDayWording = (key: 'time.nextDay' | 'time.pastMidnight', params: Record<string, string>) => string;

/**
 * Minutes after a day's midnight as Japanese timetables write them: hours without a leading zero,
 * and a time past the next midnight in the reader's wording (`翌4:00`), never `04:00`.
 * @example formatClock(21 * 60 + 45, t) // '21:45'
 * @example formatClock(28 * 60, t) // '翌4:00'
 */
export function formatClock(minutes: number, t: NextDayWording): string {
  const m = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  const time = `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
  return minutes >= DAY_MINUTES ? t('time.nextDay', { time }) : time;
}

/**
 * A Tokyo time under its business day: `21:45`, and `翌0:15` for a quarter past midnight (it
 * belongs to the night before), never `0:15`. With `{ day, t }` under that business day instead
 * (a day's starts listed together). Every time Sugu shows comes from here, `formatWhen`,
 * `formatStay` or `formatClock`, on the server, in the browser, in mails and calendar files.
 * @example formatTime(new Date('2026-11-21T12:45:00Z'), t) // '21:45'
 * @example formatTime(new Date('2026-11-21T15:15:00Z'), t) // '翌0:15'
 */
export function formatTime(at: Date, under: NextDayWording | { day: string; t: NextDayWording }): string {
  return typeof under === 'function' ? timesUnder(businessDate(at), under)(at) : timesUnder(under.day, under.t)(at);
}

/**
 * `formatTime` under one day, for a page that writes hundreds of times (the door's ledger): the
 * day's midnight is worked out once, and an instant may come as the API's ISO text.
 * @example timesUnder('2026-11-21', t)('2026-11-22T00:15:00+09:00') // '翌0:15'
 */
export function timesUnder(day: string, t: NextDayWording): (at: Date | string | number) => string {
  const midnight = tokyoInstant(day).getTime();
  return (at) => formatClock(Math.round(((typeof at === 'string' ? Date.parse(at) : +at) - midnight) / MINUTE_MS), t);
}

/** Formatters per style and locale: building one costs far more than formatting with it. */
/** Two styles in each of the ten languages, and room for the few locales a browser may name beyond them. */
export const formatters = new BoundedCache<string, Intl.DateTimeFormat>(64);
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

/** The date of a business day (`11月26日(木)`), whatever its times. */
export function formatBusinessDay(day: string, locale: string): string {
  return formatDay(tokyoInstant(day, 12 * 60), locale);
}

/** Under the business day's date, a time past midnight also names the calendar date it falls on. */
function withCalendarDate(text: string, at: Date, day: string, locale: string, t: NextDayWording): string {
  return tokyoParts(at).date === day ? text : t('time.pastMidnight', { when: text, date: formatDay(at, locale) });
}

/**
 * A moment with its date: `11月26日(木) 21:45`, and past midnight under its business day with the
 * calendar date beside it: `11月26日(木) 翌0:30（11月27日(金)）`.
 */
export function formatWhen(at: Date, locale: string, t: NextDayWording): string {
  const day = businessDate(at);
  return withCalendarDate(`${formatBusinessDay(day, locale)} ${formatTime(at, { day, t })}`, at, day, locale, t);
}

/**
 * A stay: `11月21日(土) 21:45〜23:45`, `11月21日(土) 23:30〜翌1:30` when it runs past midnight, and
 * `11月26日(木) 翌0:30〜翌2:30（11月27日(金)）` when it starts after midnight (the business day's date
 * first, as the store counts it, then the calendar's).
 */
export function formatStay(start: Date, end: Date, locale: string, t: NextDayWording): string {
  const day = businessDate(start);
  const text = `${formatBusinessDay(day, locale)} ${formatTime(start, { day, t })}${locale === 'ja' ? '〜' : '–'}${formatTime(end, { day, t })}`;
  return withCalendarDate(text, start, day, locale, t);
}
