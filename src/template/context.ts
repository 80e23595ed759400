import type { AstroCookies } from 'astro';
import { CURRENCIES, formatCurrency, formatDate } from './filters';
import { parseSettings, SETTINGS_COOKIE } from './settings';

/** What a template page needs to show money and dates the way the settings drawer says. */
export function templateFormat(cookies: AstroCookies, locale: string) {
  const settings = parseSettings(cookies.get(SETTINGS_COOKIE)?.value);
  const currency = CURRENCIES[settings.currency];
  return {
    settings,
    currency,
    money: (n: number) => formatCurrency(n, currency),
    date: (d: Date | string) => formatDate(d, locale, undefined, settings.dateFormat),
  };
}
