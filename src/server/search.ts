/**
 * Keyword search over the stores held in memory (DESIGN §5: p95 < 5 ms at 10,000 stores).
 *
 * Each store's searchable text (name, kana, genre in Japanese and English, area, station, tags;
 * src/lib/searchText.ts) is folded once per store record and kept beside it; a keyword is folded
 * by the same functions and matched by substring, every word of it somewhere in the store. A romaji
 * word of five letters or more that matches no store exactly forgives one typo against the romaji
 * of the stores' readings.
 */
import { translatorFor } from '../i18n';
import type { Genre } from '../lib/contract/enums';
import { searchQueryWords, storeSearchText, withinOneTypo, type QueryWord, type StoreSearchText } from '../lib/searchText';

/** A store as search reads it (the availability index's facts, or a row read from the database). */
export interface SearchDoc {
  name: string;
  nameKana: string;
  genre: Genre;
  areaName: string;
  station: string;
  tags: readonly string[];
}

/** Kept per record: the index replaces a store's facts object when it re-reads the store. */
const texts = new WeakMap<SearchDoc, StoreSearchText>();

export function searchTextOf(doc: SearchDoc): StoreSearchText {
  let text = texts.get(doc);
  if (!text) {
    const genre = `discovery.genre.${doc.genre}` as const;
    text = storeSearchText({ ...doc, genre: [doc.genre, translatorFor('ja')(genre), translatorFor('en')(genre)] });
    texts.set(doc, text);
  }
  return text;
}

/** Between two stores' texts in a corpus: folding drops control characters, so no match spans two stores. */
const STORE_SEPARATOR = '\u0001';

/** One text of every store, end to end, with where each store's part starts. */
interface Joined {
  all: string;
  starts: Int32Array;
}

/** Every store's text, kept while the same records answer. */
interface Corpus {
  ids: number[];
  docs: (SearchDoc | undefined)[];
  strict: Joined;
  loose: Joined;
  /** Each romaji run and the stores (positions in ids) whose readings hold it. */
  romaji: Map<string, number[]>;
}

function joined(parts: string[]): Joined {
  const starts = new Int32Array(parts.length + 1);
  let at = 0;
  parts.forEach((p, i) => {
    starts[i] = at;
    at += p.length + STORE_SEPARATOR.length;
  });
  starts[parts.length] = at;
  return { all: parts.join(STORE_SEPARATOR) + STORE_SEPARATOR, starts };
}

const corpora = new WeakMap<object, Corpus>();

const sameText = (a: StoreSearchText, b: StoreSearchText) => a.strict === b.strict && a.loose === b.loose;

/**
 * True when the kept corpus still answers for these records. A store re-read with the same text
 * (every booking re-reads its store) only swaps its record; a new, gone or renamed store does not hold.
 */
function stillHolds(kept: Corpus, ids: readonly number[], docOf: (id: number) => SearchDoc | undefined): boolean {
  if (kept.ids.length !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) {
    if (kept.ids[i] !== ids[i]) return false;
    const doc = docOf(ids[i]!);
    const before = kept.docs[i];
    if (doc === before) continue;
    if (!doc || !before || !sameText(searchTextOf(doc), searchTextOf(before))) return false;
    kept.docs[i] = doc;
  }
  return true;
}

function corpusOf(owner: object, ids: readonly number[], docOf: (id: number) => SearchDoc | undefined): Corpus {
  const kept = corpora.get(owner);
  if (kept && stillHolds(kept, ids, docOf)) return kept;
  const docs = ids.map(docOf);
  const texts = docs.map((doc) => (doc ? searchTextOf(doc) : { strict: '', loose: '', romaji: [] }));
  const romaji = new Map<string, number[]>();
  texts.forEach((t, i) => {
    for (const run of t.romaji) {
      const list = romaji.get(run);
      if (list) list.push(i);
      else romaji.set(run, [i]);
    }
  });
  const corpus: Corpus = { ids: [...ids], docs, strict: joined(texts.map((t) => t.strict)), loose: joined(texts.map((t) => t.loose)), romaji };
  corpora.set(owner, corpus);
  return corpus;
}

/** Marks in `hits` every store whose part of `text` contains `form`. */
function markHits(text: Joined, form: string, hits: Uint8Array) {
  const { all, starts } = text;
  let at = all.indexOf(form);
  while (at >= 0) {
    // The store whose part holds this position: the last start at or before it.
    let lo = 0;
    let hi = starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    hits[lo] = 1;
    at = all.indexOf(form, starts[lo + 1]!);
  }
}

/** True when the keyword has words to match (a keyword of punctuation alone filters nothing). */
export const hasSearchWords = (keyword: string | undefined): keyword is string => Boolean(keyword && searchQueryWords(keyword).length);

/**
 * The ids of the stores whose text holds every word of the keyword. `owner` keys the kept texts
 * (one set of stores per owner: the database the index holds); `docOf` answers each id's record.
 */
export function matchKeyword(keyword: string, owner: object, ids: readonly number[], docOf: (id: number) => SearchDoc | undefined): number[] {
  const c = corpusOf(owner, ids, docOf);
  const n = c.ids.length;
  const alive = new Uint8Array(n).fill(1);
  for (const word of searchQueryWords(keyword)) {
    const hits = new Uint8Array(n);
    for (const form of word.strict) markHits(c.strict, form, hits);
    for (const form of word.loose) markHits(c.loose, form, hits);
    let any = false;
    for (let i = 0; i < n && !any; i++) any = alive[i]! === 1 && hits[i]! === 1;
    // Nothing reads as typed: one typo forgiven against the romaji of the stores' readings.
    if (!any && word.romaji) for (const [run, stores] of c.romaji) if (withinOneTypo(word.romaji, run)) for (const i of stores) hits[i] = 1;
    for (let i = 0; i < n; i++) alive[i] = alive[i]! & hits[i]!;
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (alive[i]) out.push(c.ids[i]!);
  return out;
}

/**
 * True when one store's text holds every word (a watch's keyword, checked store by store as
 * changes arrive): the same forms as the listing's; with no other store to compare, a romaji
 * typo is forgiven whenever the store does not hold the word as typed.
 */
export function storeMatchesWords(words: readonly QueryWord[], doc: SearchDoc): boolean {
  const text = searchTextOf(doc);
  return words.every(
    (w) =>
      w.strict.some((f) => text.strict.includes(f)) ||
      w.loose.some((f) => text.loose.includes(f)) ||
      (w.romaji !== null && text.romaji.some((run) => withinOneTypo(w.romaji!, run))),
  );
}
