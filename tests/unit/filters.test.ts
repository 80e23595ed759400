import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { capitalize, CURRENCIES, DEFAULT_CURRENCY, formatCurrency, formatDate, lowercase, uppercase } from '../../src/template/filters';

describe('formatCurrency (spec section 9)', () => {
  it('defaults to USD: $ on the left, no space, 2 decimals, "." and ","', () => {
    expect(DEFAULT_CURRENCY).toBe('USD');
    expect(formatCurrency(1234567.891)).toBe('$1,234,567.89');
    expect(formatCurrency(0)).toBe('$0.00');
    expect(formatCurrency(999.999)).toBe('$1,000.00');
    expect(formatCurrency('42.5', CURRENCIES.USD)).toBe('$42.50');
  });
  it('EUR: € on the right after one space', () => {
    expect(formatCurrency(1234567.891, CURRENCIES.EUR)).toBe('1,234,567.89 €');
    expect(formatCurrency(5, CURRENCIES.EUR)).toBe('5.00 €');
  });
  it('keeps the sign outside the symbol and rejects non-numbers', () => {
    expect(formatCurrency(-12.3)).toBe('-$12.30');
    expect(formatCurrency(-12.3, CURRENCIES.EUR)).toBe('-12.30 €');
    expect(formatCurrency('abc')).toBe('');
    expect(formatCurrency(Number.NaN)).toBe('');
  });
  it('round-trips any amount in both currencies', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom('USD', 'EUR' as const), (cents, code) => {
        const text = formatCurrency(cents / 100, CURRENCIES[code]);
        const digits = text.replace(/[$€,\s]/g, '');
        expect(Math.round(Number(digits) * 100)).toBe(cents);
        expect(code === 'USD' ? text.replace('-', '').startsWith('$') : text.endsWith(' €')).toBe(true);
      }),
    );
  });
});

describe('formatDate', () => {
  it("formats 'LL' in America/New_York", () => {
    expect(formatDate('1986-09-04T12:00:00Z')).toBe('September 4, 1986');
    // 03:00 UTC is still the previous evening in New York.
    expect(formatDate('2026-11-21T03:00:00Z')).toBe('November 20, 2026');
    expect(formatDate(new Date('2026-07-01T04:30:00Z'))).toBe('July 1, 2026');
  });
  it('follows the locale and rejects invalid dates', () => {
    expect(formatDate('2026-11-21T12:00:00Z', 'ja')).toBe('2026年11月21日');
    expect(formatDate('not a date')).toBe('');
  });
  it('offers the other moment formats of the settings drawer', () => {
    expect(formatDate('2026-11-21T12:00:00Z', 'en', 'America/New_York', 'L')).toBe('11/21/2026');
    expect(formatDate('2026-11-21T12:00:00Z', 'en', 'America/New_York', 'll')).toBe('Nov 21, 2026');
    expect(formatDate('2026-11-21T12:00:00Z', 'en', 'America/New_York', 'LLLL')).toBe('Saturday, November 21, 2026 at 7:00 AM');
  });
});

describe('text filters', () => {
  it('capitalize, lowercase, uppercase', () => {
    expect(capitalize('hello world')).toBe('Hello world');
    expect(capitalize('')).toBe('');
    expect(capitalize(null)).toBe('');
    expect(lowercase('HeLLo WORLD')).toBe('hello world');
    expect(uppercase('hello world')).toBe('HELLO WORLD');
    expect(uppercase(undefined)).toBe('');
  });
});
