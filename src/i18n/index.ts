import i18next from 'i18next';
import { FALLBACK_LOCALE, LOCALE_CODES, RTL_LOCALES, type Locale } from './locales.ts';
import type jaAccount from './locales/ja/account.json';
import type jaAuth from './locales/ja/auth.json';
import type jaBooking from './locales/ja/booking.json';
import type jaCommon from './locales/ja/common.json';
import type jaDiscovery from './locales/ja/discovery.json';
import type jaLive from './locales/ja/live.json';
import type jaStore from './locales/ja/store.json';
import type jaTemplate from './locales/ja/template.json';
import type jaWatch from './locales/ja/watch.json';

export type Dictionary = Record<string, string>;

/** Every `locales/<code>/<namespace>.json`, merged into one flat dictionary per locale. */
function localeFiles(): Record<string, Dictionary> {
  try {
    return import.meta.glob<Dictionary>('./locales/*/*.json', { eager: true, import: 'default' });
  } catch {
    // Outside Vite (scripts run with tsx, such as the benchmarks) there is no glob: read the folder.
    const fs = process.getBuiltinModule('node:fs');
    const dir = new URL('./locales/', import.meta.url);
    const found: Record<string, Dictionary> = {};
    for (const code of fs.readdirSync(dir)) {
      for (const file of fs.readdirSync(new URL(`${code}/`, dir))) {
        found[`./locales/${code}/${file}`] = JSON.parse(fs.readFileSync(new URL(`${code}/${file}`, dir), 'utf8')) as Dictionary;
      }
    }
    return found;
  }
}
const files = localeFiles();

export const dictionaries: Record<string, Dictionary> = {};
for (const [path, dict] of Object.entries(files)) {
  const code = path.split('/')[2]!;
  dictionaries[code] = { ...dictionaries[code], ...dict };
}

// One instance for the process, initialised once; each request gets a translator fixed to its
// locale (getFixedT), so concurrent requests never share a language switch.
const instance = i18next.createInstance();
void instance.init({
  initAsync: false,
  resources: Object.fromEntries(LOCALE_CODES.map((code) => [code, { translation: dictionaries[code] ?? {} }])),
  lng: FALLBACK_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...LOCALE_CODES],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Every message key: Japanese is the complete dictionary, so its keys are the keys. */
export type MessageKey = keyof (typeof jaAccount & typeof jaAuth & typeof jaBooking & typeof jaCommon & typeof jaDiscovery & typeof jaLive & typeof jaStore & typeof jaTemplate & typeof jaWatch);

/** A translator fixed to one locale. `count` picks the plural form where the language has one. */
export type T = (key: MessageKey, params?: Record<string, unknown>) => string;

export function translatorFor(locale: Locale): T {
  return instance.getFixedT(locale) as unknown as T;
}

export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr';
}

/**
 * The subset of a locale's dictionary an island needs, so islands ship no i18next: each key as
 * written (placeholders left for the island to fill) with its plural forms, read by
 * `fromDictionary` of src/lib/contract/messages.ts.
 */
export function pick(locale: Locale, keys: readonly MessageKey[]): Dictionary {
  const out: Dictionary = {};
  for (const key of keys) {
    // As i18next: the locale's own word and forms, else the fallback locale's, never a mix.
    const dict = dictionaries[locale]?.[key] !== undefined ? dictionaries[locale]! : (dictionaries[FALLBACK_LOCALE] ?? {});
    out[key] = dict[key] ?? key;
    for (const form of PLURAL_FORMS) if (dict[`${key}_${form}`]) out[`${key}_${form}`] = dict[`${key}_${form}`]!;
  }
  return out;
}

/** The plural categories of CLDR, as i18next suffixes them. */
export const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
