/**
 * The one normaliser of keyword search: the store side (src/server/search.ts) and the diner's
 * keyword go through the same functions, so whatever is folded on one side is folded on the other.
 *
 * - NFKC (全角 ＡＢＣ → abc, ﾗｰﾒﾝ → ラーメン), lower case, Latin accents dropped (Étoile → etoile);
 * - katakana → hiragana; small kana → their large form (ゃ → や, ぁ → あ), っ dropped, づ/ぢ/を as
 *   ず/じ/お; spaces, punctuation, symbols and control characters dropped;
 * - long vowels made one mark: ー, a vowel repeating its row (らあめん) and う after an o-row kana
 *   (とうきょう) all read ー ("strict"); the "loose" form drops the mark, for romaji typed without
 *   long vowels (ramen, tokyo);
 * - kanji words replaced by their readings (src/lib/searchReadings.ts), longest first;
 * - romaji turned into kana (wanakana; Hepburn's m before b/m/p read as n, l as r), and for romaji of five
 *   letters or more one typo forgiven against the romaji of the stores' readings (server side).
 */
import { toHiragana as kanaOfRomaji } from 'wanakana';
import { SEARCH_READINGS } from './searchReadings';
import { BoundedCache } from './boundedCache';

/** Romaji queries at least this long forgive one typo (a letter wrong, missing, extra or swapped). */
export const TYPO_MIN_LETTERS = 5;

const KATAKANA_FIRST = 0x30a1;
const KATAKANA_LAST = 0x30f6;
const KATAKANA_TO_HIRAGANA = 0x60;
const LONG = 'ー';

/** Small kana and spelling variants, as read for search ('' drops the character). */
// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const VARIANT: Record<string, string> = {
  ぁ: 'あ', ぃ: 'い', ぅ: 'う', ぇ: 'え', ぉ: 'お', ゃ: 'や', ゅ: 'ゆ', ょ: 'よ', ゎ: 'わ', ゕ: 'か', ゖ: 'け',
  っ: '', づ: 'ず', ぢ: 'じ', を: 'お', ゔ: 'ぶ', '〜': LONG, '～': LONG, '〰': LONG,
};

/** The vowel of each hiragana syllable (what a following vowel lengthens). */
const ROWS: Record<string, string> = {
  あ: 'あかさたなはまやらわがざだばぱ',
  い: 'いきしちにひみりぎじびぴ',
  う: 'うくすつぬふむゆるぐずぶぷ',
  え: 'えけせてねへめれげぜでべぺ',
  お: 'おこそとのほもよろごぞどぼぽ',
};
const VOWEL_OF = new Map<string, string>(Object.entries(ROWS).flatMap(([vowel, row]) => [...row].map((k) => [k, vowel] as const)));

const DROPPED = /[\s\p{P}\p{S}\p{C}]/u;
const ASCII_KEPT = /[a-z0-9]/;
const LATIN_ACCENTS = /[\u0300-\u036f]/g;

/** Strict form: NFKC, lower case, kana folded, long vowels as one ー, no spaces or punctuation. */
export function foldSearchText(input: string): string {
  const base = input.normalize('NFKC').toLowerCase().normalize('NFD').replace(LATIN_ACCENTS, '').normalize('NFC');
  let out = '';
  let vowel = '';
  for (const ch of base) {
    const c = ch.codePointAt(0)!;
    let k = c >= KATAKANA_FIRST && c <= KATAKANA_LAST ? String.fromCodePoint(c - KATAKANA_TO_HIRAGANA) : ch;
    k = VARIANT[k] ?? k;
    if (k === '' || (c < 0x80 ? !ASCII_KEPT.test(k) : DROPPED.test(k))) continue;
    const lengthens = k === LONG || (vowel !== '' && (k === vowel || (k === 'う' && vowel === 'お')));
    if (lengthens) {
      if (!out.endsWith(LONG)) out += LONG;
      continue;
    }
    out += k;
    vowel = VOWEL_OF.get(k) ?? '';
  }
  return out;
}

/** Loose form of a strict one: long vowels dropped (ラーメン and ramen both read らめん). */
export const loosen = (folded: string): string => folded.replaceAll(LONG, '');

/** Readings, folded, longest key first per first character. */
const READINGS = (() => {
  const byFirst = new Map<string, [string, string][]>();
  for (const [key, reading] of Object.entries(SEARCH_READINGS)) {
    const k = foldSearchText(key);
    const list = byFirst.get(k[0]!) ?? [];
    list.push([k, foldSearchText(reading)]);
    byFirst.set(k[0]!, list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b[0].length - a[0].length);
  return byFirst;
})();

/** A folded text with each known kanji word replaced by its folded reading (longest match first). */
export function withReadings(folded: string): string {
  let out = '';
  for (let i = 0; i < folded.length; ) {
    const hit = READINGS.get(folded[i]!)?.find(([k]) => folded.startsWith(k, i));
    if (hit) {
      out += hit[1];
      i += hit[0].length;
    } else {
      out += folded[i];
      i++;
    }
  }
  return out;
}

const ROMAJI_WORD = /^[a-z'-]+$/;

/** Romaji as wanakana reads it: Hepburn's m before b, m, p is ん, and l (absent from Japanese) is r. */
const hepburn = (word: string) => word.replace(/m(?=[bmp])/g, 'n').replaceAll('l', 'r');
const LATIN_LETTER = /[a-z]/;

/**
 * A romaji word as folded kana, or null when it does not read as kana (English words ending in
 * a consonant, like "bar", stay Latin: read as ば they would find every ば).
 */
export function kanaOfRomajiWord(word: string): string | null {
  if (!ROMAJI_WORD.test(word)) return null;
  const kana = kanaOfRomaji(hepburn(word));
  return LATIN_LETTER.test(kana) ? null : foldSearchText(kana);
}

/** One word of a keyword: what it may appear as in a store's searchable text (any one will do). */
export interface QueryWord {
  /** Strict folded forms: the word, and the word with kanji read as kana. */
  strict: string[];
  /** Loose forms (romaji read as kana). */
  loose: string[];
  /** The word in Latin letters when it is romaji of TYPO_MIN_LETTERS or more (for typo matching). */
  romaji: string | null;
}

/** The words of a keyword, each with its forms; empty when the keyword has none. */
export function searchQueryWords(keyword: string): QueryWord[] {
  const words = keyword.normalize('NFKC').split(/\s+/u);
  const out: QueryWord[] = [];
  for (const word of words) {
    const folded = foldSearchText(word);
    if (!folded) continue;
    const strict = [...new Set([folded, withReadings(folded)])];
    const kana = kanaOfRomajiWord(folded);
    const loose = kana ? [loosen(kana)] : [];
    // Compared with the romaji of the stores' folded readings, so read the same way when it reads as kana.
    const romaji = ROMAJI_WORD.test(folded) && folded.length >= TYPO_MIN_LETTERS ? (kana ? romajiOfFolded(loosen(kana)) : hepburn(folded)) : null;
    out.push({ strict, loose, romaji });
  }
  return out;
}

/** Hepburn romaji of each large hiragana (what folding leaves), for typo matching. */
const ROMAJI: Record<string, string> = Object.fromEntries(
  (
    'あa いi うu えe おo かka きki くku けke こko さsa しshi すsu せse そso たta ちchi つtsu てte とto なna にni ぬnu ねne のno ' +
    'はha ひhi ふfu へhe ほho まma みmi むmu めme もmo やya ゆyu よyo らra りri るru れre ろro わwa ゐi ゑe んn ' +
    'がga ぎgi ぐgu げge ごgo ざza じji ずzu ぜze ぞzo だda でde どdo ばba びbi ぶbu べbe ぼbo ぱpa ぴpi ぷpu ぺpe ぽpo'
  )
    .split(' ')
    .map((pair) => [pair[0]!, pair.slice(1)]),
);

/**
 * Romaji of a folded text (kana read as Hepburn, an i-row kana before や/ゆ/よ as one sound:
 * きよ → kyo, しゆ → shu, since folding made ょ and ゅ large); other characters kept.
 */
export function romajiOfFolded(folded: string): string {
  let out = '';
  for (let i = 0; i < folded.length; i++) {
    const k = folded[i]!;
    const r = ROMAJI[k];
    if (r === undefined) {
      out += k;
      continue;
    }
    const next = folded[i + 1];
    if (r.length > 1 && r.endsWith('i') && r !== 'i' && (next === 'や' || next === 'ゆ' || next === 'よ')) {
      const vowel = ROMAJI[next]!.slice(1);
      out += /^(shi|chi|ji)$/.test(r) ? r.slice(0, -1) + vowel : `${r.slice(0, -1)}y${vowel}`;
      i++;
    } else out += r;
  }
  return out;
}

/** Field separator in a store's searchable text: no folded text contains it, so no match spans two fields. */
export const FIELD_SEPARATOR = '\n';

/** What a store is searched by. */
export interface SearchableStore {
  name: string;
  nameKana: string;
  /** The genre's key and its labels (Japanese, English). */
  genre: readonly string[];
  areaName: string;
  station: string;
  tags: readonly string[];
}

/** A store's searchable text: strict and loose forms of each field, and the romaji of its readings. */
export interface StoreSearchText {
  strict: string;
  loose: string;
  /** Latin runs of the loose forms read as romaji (typo matching), each once. */
  romaji: string[];
}

/** Folded forms of field values already seen (areas, stations, tags and genres repeat across stores). */
export const fieldMemo = new BoundedCache<string, { strict: string[]; loose: string[]; romaji: string[] }>(20_000);

function fieldForms(value: string) {
  let forms = fieldMemo.get(value);
  if (!forms) {
    const folded = foldSearchText(value);
    const strict = folded ? [...new Set([folded, withReadings(folded)])] : [];
    const loose = [...new Set(strict.map(loosen))];
    const romaji = loose.flatMap((l) =>
      romajiOfFolded(l)
        .split(/[^a-z]+/)
        .filter((run) => run.length >= TYPO_MIN_LETTERS - 1),
    );
    forms = { strict, loose, romaji };
    fieldMemo.set(value, forms);
  }
  return forms;
}

export function storeSearchText(s: SearchableStore): StoreSearchText {
  const strict: string[] = [];
  const loose: string[] = [];
  const romaji = new Set<string>();
  for (const value of [s.name, s.nameKana, ...s.genre, s.areaName, s.station, ...s.tags]) {
    const forms = fieldForms(value);
    strict.push(...forms.strict);
    loose.push(...forms.loose);
    for (const run of forms.romaji) romaji.add(run);
  }
  return { strict: strict.join(FIELD_SEPARATOR), loose: loose.join(FIELD_SEPARATOR), romaji: [...romaji] };
}

/**
 * True when `query` is within one edit (a letter wrong, missing, extra, or two neighbours swapped)
 * of some part of `text`: approximate substring matching (Sellers), with transpositions.
 */
export function withinOneTypo(query: string, text: string): boolean {
  const m = query.length;
  if (m === 0) return true;
  // prev2, prev, cur: rows j-2, j-1, j of the table of distances, query positions 0..m.
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, i) => i);
  if (prev[m]! <= 1) return true;
  let cur = new Array<number>(m + 1);
  for (let j = 1; j <= text.length; j++) {
    cur[0] = 0;
    const tc = text[j - 1];
    for (let i = 1; i <= m; i++) {
      const qc = query[i - 1];
      let d = Math.min(prev[i - 1]! + (qc === tc ? 0 : 1), prev[i]! + 1, cur[i - 1]! + 1);
      if (i > 1 && j > 1 && qc === text[j - 2] && query[i - 2] === tc) d = Math.min(d, prev2[i - 2]! + 1);
      cur[i] = d;
    }
    if (cur[m]! <= 1) return true;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return false;
}
