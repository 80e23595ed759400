/**
 * Bigram search terms of the `search_terms` column (pure; written by the seed and store creation).
 * The listing no longer reads them: its keyword search is in memory (src/server/search.ts,
 * docs/search.md); the column is kept for SQL clients until it is dropped.
 *
 * Trigram indexes do not help two-character Japanese words (焼肉, 渋谷), so each store keeps
 * `search_terms text[]` (GIN-indexed) holding, for every normalised word of its name, kana,
 * genre label, area and station: the word itself, each character and each character bigram.
 * A keyword matches when the store's terms contain all of the keyword's query terms:
 *
 *   where search_terms @> ${searchQueryTerms(keyword)}::text[]
 *
 * Normalisation: NFKC (full-width → half-width, ｶﾀｶﾅ → カタカナ), lower case, katakana →
 * hiragana (so やきにく finds ヤキニク), words split on spaces and punctuation.
 */

const KATAKANA_START = 0x30a1; // ァ
const KATAKANA_END = 0x30f6; // ヶ

export function toHiragana(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c >= KATAKANA_START && c <= KATAKANA_END ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out;
}

/** NFKC, lower case, katakana → hiragana. */
export function normalizeSearchText(s: string): string {
  return toHiragana(s.normalize('NFKC').toLowerCase());
}

/** Normalised words: split on whitespace and punctuation (the long-vowel mark ー is kept). */
export function searchWords(s: string): string[] {
  return normalizeSearchText(s)
    .split(/[\s\p{P}\p{S}]+/u)
    .filter((w) => w.length > 0);
}

function chars(w: string): string[] {
  return Array.from(w);
}

export function bigrams(w: string): string[] {
  const cs = chars(w);
  const out: string[] = [];
  for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i] + cs[i + 1]);
  return out;
}

/** Terms to store for a document made of these fields (order-stable, no duplicates). */
export function buildSearchTerms(fields: ReadonlyArray<string | null | undefined>): string[] {
  const terms = new Set<string>();
  for (const f of fields) {
    if (!f) continue;
    for (const w of searchWords(f)) {
      terms.add(w);
      for (const c of chars(w)) terms.add(c);
      for (const b of bigrams(w)) terms.add(b);
    }
  }
  return [...terms];
}

/** Fields of a store that feed its search terms. */
export interface StoreSearchFields {
  name: string;
  nameKana: string;
  genre: string;
  genreLabel: string;
  areaName: string;
  areaNameKana?: string;
  station: string;
}

export function storeSearchTerms(s: StoreSearchFields): string[] {
  return buildSearchTerms([s.name, s.nameKana, s.genreLabel, s.genre, s.areaName, s.areaNameKana, s.station]);
}

/**
 * Terms a keyword needs (all must be present): the bigrams of each word, or the word
 * itself when it is a single character. Empty when the keyword has no words.
 */
export function searchQueryTerms(keyword: string): string[] {
  const terms = new Set<string>();
  for (const w of searchWords(keyword)) {
    const bs = bigrams(w);
    if (bs.length === 0) terms.add(w);
    for (const b of bs) terms.add(b);
  }
  return [...terms];
}
