/** What the booking pages give the booking widget: the store's limits, the dates, the labels. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/types';
import { stores, storeTables } from '../db/schema';
import { dictionaries, pick, type MessageKey } from '../../i18n';
import type { Locale } from '../../i18n/locales';
import { formatDay, toTokyoIso, tokyoInstant } from '../../lib/datetime';
import { TABLE_KINDS, type TableKind } from '../../lib/contract/enums';
import { largestParty } from '../../lib/party';
import { bookableDates, businessDate } from '../availability';
import { isChangeable, type BookingView } from './view';
import type { FeePolicy } from '../../lib/contract/fee';
import { bookingFee } from './json';
import type { T } from '../../i18n';
import { clock } from '../clock';

/** The numbers of a store's cancellation policy, or null for no such store. */
export async function feePolicyOf(db: Db, storeId: number): Promise<FeePolicy | null> {
  const [row] = await db.select({ freeHours: stores.cancelFreeHours, feeYen: stores.cancelFeeYen }).from(stores).where(eq(stores.id, storeId));
  return row ?? null;
}

export interface BookingStore {
  id: number;
  name: string;
  cancellationPolicy: string;
  feePolicy: FeePolicy;
  stayMinutes: number;
  address: string;
  phone: string;
  lat: number;
  lng: number;
  /** The largest party one table takes. */
  maxParty: number;
  /** Seat kinds the store has, in a fixed order. */
  kinds: TableKind[];
}

export async function bookingStore(db: Db, storeId: number): Promise<BookingStore | null> {
  const [store] = await db
    .select({
      id: stores.id,
      name: stores.name,
      cancellationPolicy: stores.cancellationPolicy,
      freeHours: stores.cancelFreeHours,
      feeYen: stores.cancelFeeYen,
      stayMinutes: stores.stayMinutes,
      address: stores.address,
      phone: stores.phone,
      lat: stores.lat,
      lng: stores.lng,
    })
    .from(stores)
    .where(eq(stores.id, storeId));
  if (!store) return null;
  const { freeHours, feeYen, ...rest } = store;
  // Walk-in-only tables are not the diners': their sizes and kinds are not offered.
  const tables = await db
    .select({ kind: storeTables.kind, maxParty: storeTables.maxParty, online: storeTables.online })
    .from(storeTables)
    .where(and(eq(storeTables.storeId, storeId), eq(storeTables.online, true)));
  const kinds = TABLE_KINDS.filter((k) => tables.some((x) => x.kind === k));
  return { ...rest, feePolicy: { freeHours, feeYen }, maxParty: largestParty(tables), kinds };
}

/**
 * Strings the booking widget needs, passed to it as props (islands ship no dictionaries): its own, and
 * the field names and messages of the contract's schemas (tests/unit/contract.test.ts checks them).
 */
const WIDGET_LABEL_PREFIXES = [
  'booking.form.',
  'booking.seat.',
  'booking.summary.',
  'booking.guest.',
  'booking.edit.',
  'booking.complete.',
  'booking.list.',
  'booking.validation.',
  'validation.',
  'field.',
];
const WIDGET_LABEL_KEYS = [
  'common.freeTables',
  'discovery.store.slotsNext',
  'discovery.store.slotsFirst',
  'discovery.store.slotsHour',
  'time.nextDay',
  'time.pastMidnight',
  'booking.raceLost',
  'booking.raceNone',
  'booking.partyCount',
  'booking.policyNone',
  'booking.title.complete',
  'booking.error.network',
  'booking.error.nothingToChange',
  'booking.slotFilled',
  'booking.status.confirmed',
  'booking.status.cancelled',
  'booking.status.past',
  'watch.form.submit',
  'watch.ask.taken',
];

export function widgetLabels(locale: Locale): Record<string, string> {
  const keys = (Object.keys(dictionaries.ja ?? {}) as MessageKey[]).filter(
    (k) => WIDGET_LABEL_PREFIXES.some((p) => k.startsWith(p)) || WIDGET_LABEL_KEYS.includes(k),
  );
  return pick(locale, keys);
}

/** How the reader's language writes today's date (`今日 {{date}}`): i18next's `t`. */
type TodayWording = (key: 'time.today', params: { date: string }) => string;

/**
 * Kept per language for the business day they were made on: every store page and booking form
 * lists the fourteen days, and formatting them was a fiftieth of the store page's time. A copy is
 * returned, so callers may add to it. Bound: one list per language pages are drawn in (LOCALES), of
 * the current business day only (yesterday's are dropped when today's first is made).
 */
export const keptDates = new Map<string, { value: string; label: string }[]>();

/** The dates a diner may pick, labelled `今日 11月21日(土)`, `11月22日(日)` … (or the locale's form). */
export function dateChoices(locale: string, t: TodayWording, now = clock.now()): { value: string; label: string }[] {
  const day = businessDate(now);
  const key = `${locale}\u0000${day}`;
  let dates = keptDates.get(key);
  if (!dates) {
    dates = bookableDates(now).map((value, i) => {
      const date = formatDay(tokyoInstant(value, 12 * 60), locale);
      return { value, label: i === 0 ? t('time.today', { date }) : date };
    });
    // Yesterday's lists go when a new day's first is made.
    for (const k of keptDates.keys()) if (!k.endsWith(day)) keptDates.delete(k);
    keptDates.set(key, dates);
  }
  return dates.map((d) => ({ ...d }));
}

/** The store as the widget shows it. */
export const widgetStore = (s: BookingStore) => ({
  id: s.id,
  name: s.name,
  policy: s.cancellationPolicy,
  maxParty: s.maxParty,
  kinds: s.kinds,
  stayMinutes: s.stayMinutes,
  address: s.address,
  phone: s.phone,
  lat: s.lat,
  lng: s.lng,
});

/**
 * The widget's dates and booking for changing `b` (its own day stays offered even when past the
 * window), with the fee cancelling it now would cost.
 */
export function editWidgetProps(b: BookingView, locale: string, t: T, now = clock.now()) {
  const dates = dateChoices(locale, t, now);
  const date = businessDate(b.start);
  if (!dates.some((d) => d.value === date)) dates.unshift({ value: date, label: date });
  const booking = {
    start: toTokyoIso(b.start),
    end: toTokyoIso(b.end),
    date,
    party: b.partySize,
    seat: b.seatPreference,
    note: b.note,
    changeable: isChangeable(b, now),
    status: b.status,
    cancellation_fee: bookingFee(b, { t, locale }, now),
  };
  return { dates, booking };
}
