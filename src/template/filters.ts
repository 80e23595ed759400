/**
 * The template's display filters (spec sections 3 and 9): capitalize, formatCurrency, formatDate,
 * lowercase and uppercase. Pure, so pages, islands and the /ui/filters demos share one version.
 */

export interface CurrencyConfig {
  label: string;
  decimalDigits: number;
  decimalSeparator: string;
  thousandsSeparator: string;
  currencySymbol: string;
  currencySymbolPosition: 'left' | 'right';
  currencySymbolNumberOfSpaces: number;
}

export const CURRENCIES = {
  USD: {
    label: 'USD',
    decimalDigits: 2,
    decimalSeparator: '.',
    thousandsSeparator: ',',
    currencySymbol: '$',
    currencySymbolPosition: 'left',
    currencySymbolNumberOfSpaces: 0,
  },
  EUR: {
    label: 'EUR',
    decimalDigits: 2,
    decimalSeparator: '.',
    thousandsSeparator: ',',
    currencySymbol: '€',
    currencySymbolPosition: 'right',
    currencySymbolNumberOfSpaces: 1,
  },
} as const satisfies Record<string, CurrencyConfig>;

export type CurrencyCode = keyof typeof CURRENCIES;
export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

/** Time config of the spec: 'LL' in America/New_York. */
export const TIME_CONFIG = { zone: 'America/New_York', format: 'LL' } as const;

/** @example capitalize('hello world') // 'Hello world' */
export function capitalize(value: unknown): string {
  const s = value == null ? '' : String(value);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** @example lowercase('HeLLo') // 'hello' */
export function lowercase(value: unknown): string {
  return value == null ? '' : String(value).toLowerCase();
}

/** @example uppercase('hello') // 'HELLO' */
export function uppercase(value: unknown): string {
  return value == null ? '' : String(value).toUpperCase();
}

/**
 * Money with the currency's own symbol placement and separators.
 * @example formatCurrency(1234.5) // '$1,234.50'
 * @example formatCurrency(1234.5, CURRENCIES.EUR) // '1,234.50 €'
 */
export function formatCurrency(value: number | string, currency: CurrencyConfig = CURRENCIES[DEFAULT_CURRENCY]): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '';
  const fixed = Math.abs(n).toFixed(currency.decimalDigits);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, currency.thousandsSeparator);
  const amount = fraction ? `${grouped}${currency.decimalSeparator}${fraction}` : grouped;
  const space = ' '.repeat(Math.max(0, currency.currencySymbolNumberOfSpaces));
  const body = currency.currencySymbolPosition === 'left' ? `${currency.currencySymbol}${space}${amount}` : `${amount}${space}${currency.currencySymbol}`;
  return n < 0 && Number(fixed) !== 0 ? `-${body}` : body;
}

/** Moment-style date formats the template offers; 'LL' is the spec's default. */
const DATE_FORMAT_OPTIONS: Record<string, Intl.DateTimeFormatOptions> = {
  LL: { year: 'numeric', month: 'long', day: 'numeric' },
  L: { year: 'numeric', month: '2-digit', day: '2-digit' },
  ll: { year: 'numeric', month: 'short', day: 'numeric' },
  LLLL: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' },
};

/**
 * A date in the template's time config: by default moment's 'LL' (long date) in America/New_York.
 * @example formatDate('2026-11-21T03:00:00Z') // 'November 20, 2026' (still the 20th in New York)
 */
export function formatDate(value: Date | string | number, locale = 'en', zone: string = TIME_CONFIG.zone, format: string = TIME_CONFIG.format): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const tag = locale === 'en' ? 'en-US' : locale;
  return new Intl.DateTimeFormat(tag, { timeZone: zone, ...(DATE_FORMAT_OPTIONS[format] ?? DATE_FORMAT_OPTIONS.LL) }).format(date);
}
