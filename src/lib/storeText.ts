/**
 * A store's own data (name, area, station, features) in the reader's language. Japanese readers
 * get it as the store wrote it; the other nine get the name in Latin letters beside the Japanese
 * one on the sign, and the places and features the catalogue knows from the messages
 * (src/lib/contract/places.ts). Anything it does not know stays as written, marked Japanese.
 */
import type { T } from '../i18n';
import { PLACES, STORE_TAGS } from './contract/places';
import { BoundedCache } from './boundedCache';
import { romanName } from './format';
import { hasJapanese } from './validation';

type PlaceKey = keyof typeof PLACES;
type TagKey = keyof typeof STORE_TAGS;
const placeKeys = new Map(Object.entries(PLACES).map(([k, ja]) => [ja as string, k as PlaceKey]));
const tagKeys = new Map(Object.entries(STORE_TAGS).map(([k, ja]) => [ja as string, k as TagKey]));

/** Romanised names, made once per reading: every store's, and those added since. */
const romanised = new BoundedCache<string, string>(20_000);

/** `Ramen Taka` for the reading `ラーメン タカ`, made once and kept. */
export function romanNameOf(kana: string): string {
  let name = romanised.get(kana);
  if (name === undefined) {
    name = romanName(kana);
    romanised.set(kana, name);
  }
  return name;
}

export interface ShownName {
  /** What to show first (the romanised name outside Japanese). */
  name: string;
  /** The name as written in Japanese, to show beside it (in parentheses, marked lang="ja"), or null. */
  original: string | null;
}

/**
 * The store's name for the reader: Japanese as written; in the other languages the Hepburn
 * reading with the Japanese name beside it, the sign a tourist looks for. A name already in
 * Latin letters (Bar Aoi) is left alone.
 */
export function shownName(name: string, kana: string, locale: string): ShownName {
  if (locale === 'ja' || !hasJapanese(name) || !kana.trim()) return { name, original: null };
  // A name that starts in Latin letters (Wine Bar Drift 新橋店) keeps them; only its Japanese words are read.
  const words = name.trim().split(/\s+/);
  const latin = words.findIndex((w) => hasJapanese(w));
  if (latin > 0 && words.slice(latin).every(hasJapanese)) {
    const tail = kana
      .trim()
      .split(/\s+/)
      .slice(-(words.length - latin));
    const read = words.slice(latin).map((w, i) => branchHyphen(w, romanNameOf(tail[i] ?? '')));
    if (tail.length === words.length - latin) return { name: [...words.slice(0, latin), ...read].join(' '), original: name };
  }
  return { name: branchHyphen(name, romanNameOf(kana)), original: name };
}

/** A branch (渋谷店, read シブヤテン) written as maps write it: Shibuya-ten. */
function branchHyphen(name: string, roman: string): string {
  return /店$/.test(name) ? roman.replace(/(\S)ten$/, '$1-ten') : roman;
}

/** `Shibuya Ramen Taka (渋谷 らーめん たか)` as plain text (titles, alt text, map labels). */
export function shownNameText(name: string, kana: string, locale: string): string {
  const s = shownName(name, kana, locale);
  return s.original ? `${s.name} (${s.original})` : s.name;
}

/** An area's name (渋谷 → Shibuya); an unknown one as written. */
export function placeName(ja: string, locale: string, t: T): string {
  const key = locale === 'ja' ? undefined : placeKeys.get(ja);
  return key ? t(`discovery.place.${key}`) : ja;
}

/** A station (渋谷駅 → Shibuya Station, estación de Shibuya, 시부야역); an unknown one as written. */
export function stationName(ja: string, locale: string, t: T): string {
  const key = locale === 'ja' || !ja.endsWith('駅') ? undefined : placeKeys.get(ja.slice(0, -1));
  return key ? t('discovery.station', { place: t(`discovery.place.${key}`) }) : ja;
}

/** A feature the store lists (日本酒が豊富 → Wide sake selection); an unknown one as written. */
export function tagName(ja: string, locale: string, t: T): string {
  const key = locale === 'ja' ? undefined : tagKeys.get(ja);
  return key ? t(`discovery.tag.${key}`) : ja;
}

/** True when the text is still the store's Japanese (to mark it lang="ja"). */
export const inJapanese = (shown: string, locale: string): boolean => locale !== 'ja' && hasJapanese(shown);
