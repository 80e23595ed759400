/** The ten locales of the spec (section 9), with the flag each one shows. */
export const LOCALES = [
  { code: 'ja', flag: 'jp', label: '日本語' },
  { code: 'en', flag: 'us', label: 'English' },
  { code: 'es', flag: 'es', label: 'Español' },
  { code: 'pt', flag: 'pt', label: 'Português' },
  { code: 'de', flag: 'de', label: 'Deutsch' },
  { code: 'fr', flag: 'fr', label: 'Français' },
  { code: 'ar', flag: 'sa', label: 'العربية' },
  { code: 'ko', flag: 'kr', label: '한국어' },
  { code: 'ru', flag: 'ru', label: 'Русский' },
  { code: 'zh', flag: 'cn', label: '中文' },
] as const;

export type Locale = (typeof LOCALES)[number]['code'];
export const LOCALE_CODES = LOCALES.map((l) => l.code) as readonly Locale[];
export const FALLBACK_LOCALE: Locale = 'en';
export const LOCALE_COOKIE = 'locale';
export const RTL_LOCALES: readonly Locale[] = ['ar'];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

/** Emoji flag from a two-letter region code (`jp` → 🇯🇵). */
export function flagEmoji(region: string): string {
  return [...region.toUpperCase()].map((c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65)).join('');
}
