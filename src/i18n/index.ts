import { COPY_NUMBERS } from '../lib/contract/limits.ts';
import { fromDictionary } from '../lib/contract/messages.ts';
import { FALLBACK_LOCALE, RTL_LOCALES, type Locale } from './locales.ts';
import type jaAccount from './locales/ja/account.json';
import type jaAdmin from './locales/ja/admin.json';
import type jaAuth from './locales/ja/auth.json';
import type jaBooking from './locales/ja/booking.json';
import type jaCommon from './locales/ja/common.json';
import type jaDiscovery from './locales/ja/discovery.json';
import type jaFees from './locales/ja/fees.json';
import type jaLive from './locales/ja/live.json';
import type jaPush from './locales/ja/push.json';
import type jaQueue from './locales/ja/queue.json';
import type jaStore from './locales/ja/store.json';
import type jaStoreHost from './locales/ja/storehost.json';
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
  dictionaries[code] = { ...dictionaries[code], ...withCopyNumbers(dict) };
}

/** The contract's numbers written into the messages that state them (`{{bookingDaysAhead}}` …). */
function withCopyNumbers(dict: Dictionary): Dictionary {
  const names = new RegExp(`\\{\\{(${Object.keys(COPY_NUMBERS).join('|')})\\}\\}`, 'g');
  return Object.fromEntries(
    Object.entries(dict).map(([key, text]) => [key, text.replace(names, (_, name: keyof typeof COPY_NUMBERS) => String(COPY_NUMBERS[name]))]),
  );
}

/** Every message key: Japanese is the complete dictionary, so its keys are the keys. */
export type MessageKey = keyof (typeof jaAccount &
  typeof jaAdmin &
  typeof jaAuth &
  typeof jaBooking &
  typeof jaCommon &
  typeof jaDiscovery &
  typeof jaFees &
  typeof jaLive &
  typeof jaPush &
  typeof jaQueue &
  typeof jaStore &
  typeof jaStoreHost &
  typeof jaTemplate &
  typeof jaWatch);

/** A translator fixed to one locale. `count` picks the plural form where the language has one. */
export type T = (key: MessageKey, params?: Record<string, unknown>) => string;

/**
 * The translator of one locale, shared by every request in it (it holds no state but its memo).
 * It reads the flat dictionaries with the same rules as the islands' `fromDictionary`: the
 * locale's own message and plural forms, else the fallback locale's (English, as the spec says),
 * never a mix;
 * `{{name}}` interpolation. A listing page looks up several hundred messages, so messages without
 * parameters are remembered. i18next did the same lookups at a fifth of the listing's CPU time
 * (README, "Notes on decisions").
 */
export function translatorFor(locale: Locale): T {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = translator(locale)));
  return t;
}

/** Bound: one per locale (LOCALES). */
const translators = new Map<Locale, T>();

function translator(locale: Locale): T {
  const own = dictionaries[locale] ?? {};
  const fallback = dictionaries[FALLBACK_LOCALE] ?? {};
  const ownT = fromDictionary(own, locale);
  const fallbackT = fromDictionary(fallback, FALLBACK_LOCALE);
  const hasForms = (key: string) => PLURAL_FORMS.some((form) => `${key}_${form}` in own);
  const plain = new Map<string, string>();
  return (key, params) => {
    if (!params) {
      let text = plain.get(key);
      if (text !== undefined) return text;
      text = (key in own ? ownT : fallbackT)(key);
      // Only real keys: a key built from input (a field name) must not grow the memo.
      if (key in own || key in fallback) plain.set(key, text);
      return text;
    }
    return (key in own || (typeof params.count === 'number' && hasForms(key)) ? ownT : fallbackT)(key, params);
  };
}

export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr';
}

/**
 * The subset of a locale's dictionary an island needs, so islands ship no whole dictionary: each key as
 * written (placeholders left for the island to fill) with its plural forms, read by
 * `fromDictionary` of src/lib/contract/messages.ts.
 */
export function pick(locale: Locale, keys: readonly MessageKey[]): Dictionary {
  const out: Dictionary = {};
  for (const key of keys) {
    // As the server's translator: the locale's own word and forms, else the fallback's, never a mix.
    const dict = dictionaries[locale]?.[key] !== undefined ? dictionaries[locale]! : (dictionaries[FALLBACK_LOCALE] ?? {});
    out[key] = dict[key] ?? key;
    for (const form of PLURAL_FORMS) if (dict[`${key}_${form}`]) out[`${key}_${form}`] = dict[`${key}_${form}`]!;
  }
  return out;
}

/** The plural categories of CLDR, as the dictionaries suffix them (`key_one`, `key_few` …). */
export const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
