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
 * How the reader's language writes a time past midnight (`翌{{time}}` in Japanese): the message
 * `time.nextDay`, from i18next's `t` on the server or `fromDictionary` in the browser.
 */
export type NextDayWording = (key: 'time.nextDay', params: { time: string }) => string;

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
 * A Tokyo time, `21:45` or `9:00`. Under a date (`day`, YYYY-MM-DD: a day's starts run past
 * midnight), a time after that day's midnight reads `翌0:15`, not `00:15` under the wrong date.
 * Every time Sugu shows comes from here or `formatClock`, on the server and in the browser.
 * @example formatTime(new Date('2026-11-21T12:45:00Z')) // '21:45'
 * @example formatTime(new Date('2026-11-21T15:15:00Z'), { day: '2026-11-21', t }) // '翌0:15'
 */
export function formatTime(at: Date, under?: { day: string; t: NextDayWording }): string {
  if (!under) return formatClock(tokyoParts(at).minutes, () => '');
  return timesUnder(under.day, under.t)(at);
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

/** `11月21日(土) 21:45〜23:45`, and `11月21日(土) 23:30〜翌1:30` when the stay runs past midnight. */
export function formatStay(start: Date, end: Date, locale: string, t: NextDayWording): string {
  const day = tokyoParts(start).date;
  return `${formatDay(start, locale)} ${formatTime(start)}${locale === 'ja' ? '〜' : '–'}${formatTime(end, { day, t })}`;
}
