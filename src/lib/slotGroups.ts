import { businessDate, formatTime, MINUTE_MS, tokyoInstant } from './datetime';

/**
 * A day's starts folded so the choice fits one screen: a 24-hour store offers up to 96. The first
 * hour from the earliest start stays open (the next 60 minutes when the day is today: one tap to
 * the form, as on the cards), and the rest are folded by the business day's hour (`22:00〜`,
 * `翌0:00〜`) in <details>, which open without JavaScript — by two hours when there would be more
 * than FOLDED_GROUPS_MAX of them. A short day stays one list.
 * The store page draws it on the server and its script again after a live change, and the booking
 * form's start choice the same way (with and without JavaScript): one rule, one wording.
 */

/** A day with at most this many starts is one list (three rows of the 4-column grid). */
export const SLOT_GROUP_THRESHOLD = 12;
/** The open group holds the starts within this many minutes of the first one. */
export const OPEN_GROUP_MIN = 60;
/**
 * At most this many folded groups (16 summaries of 44 px and the open hour fill a 390×844 phone):
 * a day with more hours left (a 24-hour store's later day has 23) is folded by two hours instead.
 */
export const FOLDED_GROUPS_MAX = 16;
const HOUR_MS = 60 * MINUTE_MS;

export interface StartGroup<T> {
  /** `next`: the next 60 minutes of today, open; `first`: the day's first hour, open; `hour`: folded. */
  kind: 'all' | 'next' | 'first' | 'hour';
  /** The instant the group's hour begins (its first start for the open group). */
  from: number;
  items: T[];
}

/**
 * @param starts the day's starts, earliest first
 * @param startOf epoch ms of an item's start
 * @param now epoch ms: whether the first hour is "the next 60 minutes"
 * @example groupStarts(starts, (s) => s.start.getTime(), now)[0].kind // 'next' at 21:50 with 22:00 free
 */
export function groupStarts<T>(starts: readonly T[], startOf: (item: T) => number, now: number): StartGroup<T>[] {
  if (starts.length === 0) return [];
  if (starts.length <= SLOT_GROUP_THRESHOLD) return [{ kind: 'all', from: startOf(starts[0]!), items: [...starts] }];
  const first = startOf(starts[0]!);
  const openUntil = first + OPEN_GROUP_MIN * MINUTE_MS;
  // Hours are counted from the business day's midnight, so 翌0:00〜 is an hour like any other.
  const midnight = tokyoInstant(businessDate(new Date(first))).getTime();
  const last = startOf(starts[starts.length - 1]!);
  const hours = Math.floor((last - midnight) / (60 * MINUTE_MS)) - Math.floor((openUntil - midnight) / (60 * MINUTE_MS)) + 1;
  const hourMs = HOUR_MS * Math.max(1, Math.ceil(hours / FOLDED_GROUPS_MAX));
  const groups: StartGroup<T>[] = [
    {
      kind: first - now < OPEN_GROUP_MIN * MINUTE_MS ? 'next' : 'first',
      from: first,
      items: [],
    },
  ];
  let span = -1;
  for (const item of starts) {
    const at = startOf(item);
    if (at < openUntil) {
      groups[0]!.items.push(item);
      continue;
    }
    const spanFrom = midnight + Math.floor((at - midnight) / hourMs) * hourMs;
    if (spanFrom === span) {
      groups[groups.length - 1]!.items.push(item);
      continue;
    }
    span = spanFrom;
    // Headed by the hour of its first start: a two-hour span the open hour began reads 9:00〜, not 8:00〜.
    const from = Math.max(spanFrom, midnight + Math.floor((at - midnight) / HOUR_MS) * HOUR_MS);
    groups.push({ kind: 'hour', from, items: [item] });
  }
  return groups;
}

/** The words a group is headed by: i18next's `t` on the server, the islands' dictionary in the browser. */
export type GroupWording = (
  key: 'discovery.store.slotsNext' | 'discovery.store.slotsFirst' | 'discovery.store.slotsHour' | 'time.nextDay' | 'time.pastMidnight',
  params: Record<string, string | number>,
) => string;

/**
 * A group's heading: `これから1時間`, `12:00から`, or a folded hour with its count, `翌1:00〜（4）`.
 * `under.day` is the business day the starts belong to, so past midnight reads 翌 as everywhere.
 */
export function groupLabel(g: StartGroup<unknown>, under: { day: string; t: GroupWording }): string {
  const { t } = under;
  const time = formatTime(new Date(g.from), under);
  if (g.kind === 'next') return t('discovery.store.slotsNext', {});
  if (g.kind === 'first') return t('discovery.store.slotsFirst', { time });
  return t('discovery.store.slotsHour', { time, count: g.items.length });
}
