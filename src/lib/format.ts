import { toRomaji } from 'wanakana';
import { normaliseKana } from './validation';
import { BoundedCache } from './boundedCache';

/** Yen in each language's own way, kept per locale (a listing formats a hundred prices a page). */
const yenFormats = new BoundedCache<string, Intl.NumberFormat>(32);
function yenFormat(locale: string): Intl.NumberFormat {
  let f = yenFormats.get(locale);
  if (!f) {
    // The narrow ¥ where the language has one: a tourist reads ¥ on the shop's own price list; Arabic still writes JP¥ after the number.
    f = new Intl.NumberFormat(locale, { style: 'currency', currency: 'JPY', currencyDisplay: 'narrowSymbol' });
    yenFormats.set(locale, f);
  }
  return f;
}

/**
 * Yen (no minor unit) as the reader's language writes them: `¥3,000` in Japanese and English,
 * `3.000 ¥` in German, the symbol after the number in Arabic. Japanese keeps the half-width ¥
 * its menus print (Intl would give the full-width ￥).
 */
export function formatYen(amount: number, locale: string): string {
  return locale === 'ja' ? `¥${groupDigits(amount)}` : yenFormat(locale).format(Math.round(amount));
}

// One formatter: `toLocaleString` builds one per call, which a listing did a hundred times a page.
const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A whole number with thousands separators, as Japanese and English write it: `12,000`. */
export function groupDigits(n: number): string {
  return grouping.format(Math.round(n));
}

/**
 * A budget from min to max in the language's own order: `¥3,000〜¥5,000` in Japanese,
 * `¥3,000 – ¥5,000` in English, and in Arabic the lower bound first as Arabic reads it, the symbol once.
 */
export function formatYenRange(min: number, max: number, locale: string): string {
  if (min === max) return formatYen(min, locale);
  return locale === 'ja' ? `${formatYen(min, locale)}〜${formatYen(max, locale)}` : yenFormat(locale).formatRange(Math.round(min), Math.round(max));
}

/** The katakana of loanwords that wanakana reads letter by letter (カフェ as kafye): read as Hepburn writes them. */
// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const LOAN_ROMAJI: Record<string, string> = {
  ファ: 'fa', フィ: 'fi', フェ: 'fe', フォ: 'fo', フュ: 'fyu', ティ: 'ti', ディ: 'di', トゥ: 'tu', ドゥ: 'du', テュ: 'tyu', デュ: 'dyu',
  ヴァ: 'va', ヴィ: 'vi', ヴェ: 've', ヴォ: 'vo', ヴ: 'vu', ウィ: 'wi', ウェ: 'we', ウォ: 'wo', チェ: 'che', シェ: 'she', ジェ: 'je',
  イェ: 'ye', ツァ: 'tsa', ツェ: 'tse', ツォ: 'tso',
};
const LOAN_SOUNDS = new RegExp(
  Object.keys(LOAN_ROMAJI)
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'g',
);

/**
 * A store's name in Latin letters (Hepburn) from its kana reading, for readers of the other nine
 * languages: `ラーメン タカ` → `Ramen Taka`. Long vowels are written once (ラーメン, ギョウザ → ramen, gyoza),
 * as shop signs and maps write them; each word capitalised. Made once per store read, not per page.
 * @example romanName('ヤキニク タケ') // 'Yakiniku Take'
 */
export function romanName(kana: string): string {
  const katakana = normaliseKana(kana)
    .replace(/[・･]/g, ' ')
    // The long-vowel mark: dropped, so ラーメン is ramen while クラアン keeps its two a's (kuraan).
    .replace(/ー/g, '')
    .replace(LOAN_SOUNDS, (k) => LOAN_ROMAJI[k]!);
  const romaji = toRomaji(katakana, { upcaseKatakana: false })
    // A long o or u written with う (ギョウザ, gyouza): Hepburn on signs writes it once (gyoza).
    .replace(/ou|uu/g, (v) => v[0]!)
    .replace(/\s+/g, ' ')
    .trim();
  return romaji.replace(/(^|[\s-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/**
 * The reading to print under a name, or null when it would only repeat the name: a name already
 * written in katakana (ソウルポチャ) needs no kana line. Spaces, middle dots and hiragana vs
 * katakana do not count as a difference.
 * @example kanaReading('焼肉 たけ', 'ヤキニク タケ') // 'ヤキニク タケ'
 * @example kanaReading('ソウルポチャ', 'ソウルポチャ') // null
 */
export function kanaReading(name: string, kana: string): string | null {
  const bare = (s: string) => normaliseKana(s).replace(/[\s・]/g, '');
  return kana.trim() && bare(name) !== bare(kana) ? kana : null;
}
