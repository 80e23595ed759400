/**
 * Japanese-aware keyword search against the demo seed's stores (names, kana, genres, tags, areas
 * and stations as the seed writes them): one normaliser for the stores and the query, so kanji
 * variants, kana, romaji, full-width and half-width forms and romaji typos find the same stores.
 */
import { describe, expect, it } from 'vitest';
import { generateStores } from '../../src/server/db/seed';
import { AREAS } from '../../src/server/db/seed-data';
import { matchKeyword, storeMatchesWords, type SearchDoc } from '../../src/server/search';
import { foldSearchText, loosen, romajiOfFolded, searchQueryWords, withinOneTypo, withReadings } from '../../src/lib/searchText';
import { SEARCH_READINGS } from '../../src/lib/searchReadings';
import { FILTER_TAGS, GENRES } from '../../src/lib/contract/enums';
import { translatorFor } from '../../src/i18n';

const seed = generateStores();
const areaOf = new Map(AREAS.map((a) => [a.slug, a]));
type Store = { id: number; slug: string; doc: SearchDoc };
const stores: Store[] = seed.map(({ store }, i) => ({
  id: i + 1,
  slug: store.areaSlug,
  doc: {
    name: store.name,
    nameKana: store.nameKana,
    genre: store.genre,
    areaName: areaOf.get(store.areaSlug)!.name,
    station: store.station,
    tags: store.tags ?? [],
  },
}));
const byId = new Map(stores.map((s) => [s.id, s.doc]));
const owner = {};
const search = (q: string) => matchKeyword(q, owner, [...byId.keys()], (id) => byId.get(id)).sort((a, b) => a - b);
const idsWhere = (p: (s: Store) => boolean) => stores.filter(p).map((s) => s.id);

const inArea = (slug: string) => (s: Store) => s.slug === slug;
const ofGenre = (genre: string) => (s: Store) => s.doc.genre === genre;
const named = (part: string) => (s: Store) => s.doc.name.includes(part);
const tagged = (tag: string) => (s: Store) => s.doc.tags.includes(tag);
const both = (a: (s: Store) => boolean, b: (s: Store) => boolean) => (s: Store) => a(s) && b(s);

/** Half-width katakana of a full-width katakana word (the forms ｼﾌﾞﾔ, ﾗｰﾒﾝ that old keyboards type). */
const HALF: Record<string, string> = {
  ア: 'ｱ',
  イ: 'ｲ',
  ウ: 'ｳ',
  エ: 'ｴ',
  オ: 'ｵ',
  カ: 'ｶ',
  キ: 'ｷ',
  ク: 'ｸ',
  ケ: 'ｹ',
  コ: 'ｺ',
  サ: 'ｻ',
  シ: 'ｼ',
  ス: 'ｽ',
  セ: 'ｾ',
  ソ: 'ｿ',
  タ: 'ﾀ',
  チ: 'ﾁ',
  ツ: 'ﾂ',
  テ: 'ﾃ',
  ト: 'ﾄ',
  ナ: 'ﾅ',
  ニ: 'ﾆ',
  ヌ: 'ﾇ',
  ネ: 'ﾈ',
  ノ: 'ﾉ',
  ハ: 'ﾊ',
  ヒ: 'ﾋ',
  フ: 'ﾌ',
  ヘ: 'ﾍ',
  ホ: 'ﾎ',
  マ: 'ﾏ',
  ミ: 'ﾐ',
  ム: 'ﾑ',
  メ: 'ﾒ',
  モ: 'ﾓ',
  ヤ: 'ﾔ',
  ユ: 'ﾕ',
  ヨ: 'ﾖ',
  ラ: 'ﾗ',
  リ: 'ﾘ',
  ル: 'ﾙ',
  レ: 'ﾚ',
  ロ: 'ﾛ',
  ワ: 'ﾜ',
  ン: 'ﾝ',
  ー: 'ｰ',
  ッ: 'ｯ',
  ャ: 'ｬ',
  ュ: 'ｭ',
  ョ: 'ｮ',
  ガ: 'ｶﾞ',
  ギ: 'ｷﾞ',
  グ: 'ｸﾞ',
  ゲ: 'ｹﾞ',
  ゴ: 'ｺﾞ',
  ザ: 'ｻﾞ',
  ジ: 'ｼﾞ',
  ズ: 'ｽﾞ',
  ゼ: 'ｾﾞ',
  ゾ: 'ｿﾞ',
  ダ: 'ﾀﾞ',
  デ: 'ﾃﾞ',
  ド: 'ﾄﾞ',
  バ: 'ﾊﾞ',
  ビ: 'ﾋﾞ',
  ブ: 'ﾌﾞ',
  ベ: 'ﾍﾞ',
  ボ: 'ﾎﾞ',
  パ: 'ﾊﾟ',
  ピ: 'ﾋﾟ',
  プ: 'ﾌﾟ',
  ペ: 'ﾍﾟ',
  ポ: 'ﾎﾟ',
};
const halfWidth = (katakana: string) => [...katakana].map((c) => HALF[c] ?? c).join('');
const fullWidth = (latin: string) => [...latin].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
const hiragana = (katakana: string) => [...katakana].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0x60)).join('');

/** Each area by its kanji, hiragana, katakana, half-width katakana, romaji (its slug) and full-width romaji. */
const areaCases = AREAS.flatMap(
  (a) =>
    [
      [a.name, inArea(a.slug)],
      [hiragana(a.nameKana), inArea(a.slug)],
      [a.nameKana, inArea(a.slug)],
      [halfWidth(a.nameKana), inArea(a.slug)],
      [a.slug, inArea(a.slug)],
      [fullWidth(a.slug.toUpperCase()), inArea(a.slug)],
    ] as const,
);

const cases: (readonly [string, (s: Store) => boolean])[] = [
  ...areaCases,
  // Kanji spelling variants through their readings, kana, romaji, full- and half-width.
  ['焼鳥', ofGenre('yakitori')],
  ['焼き鳥', ofGenre('yakitori')],
  ['やきとり', ofGenre('yakitori')],
  ['ヤキトリ', ofGenre('yakitori')],
  ['ﾔｷﾄﾘ', ofGenre('yakitori')],
  ['yakitori', ofGenre('yakitori')],
  ['ＹＡＫＩＴＯＲＩ', ofGenre('yakitori')],
  ['寿司', ofGenre('sushi')],
  ['鮨', ofGenre('sushi')],
  ['すし', ofGenre('sushi')],
  ['スシ', ofGenre('sushi')],
  ['sushi', ofGenre('sushi')],
  ['Sushi', ofGenre('sushi')],
  ['ｓｕｓｈｉ', ofGenre('sushi')],
  ['拉麺', ofGenre('ramen')],
  ['ラーメン', ofGenre('ramen')],
  ['らーめん', ofGenre('ramen')],
  ['らあめん', ofGenre('ramen')],
  ['ﾗｰﾒﾝ', ofGenre('ramen')],
  ['ramen', ofGenre('ramen')],
  ['ra-men', ofGenre('ramen')],
  ['焼肉', ofGenre('yakiniku')],
  ['焼き肉', ofGenre('yakiniku')],
  ['yakiniku', ofGenre('yakiniku')],
  ['居酒屋', ofGenre('izakaya')],
  ['いざかや', ofGenre('izakaya')],
  ['izakaya', ofGenre('izakaya')],
  ['イタリアン', ofGenre('italian')],
  ['italian', ofGenre('italian')],
  ['韓国料理', ofGenre('korean')],
  ['French', ofGenre('french')],
  // A store's own name, by its kanji, its kana and their romaji; Latin names as written.
  ['千鳥', named('千鳥')],
  ['ちどり', named('千鳥')],
  ['chidori', named('千鳥')],
  ['ﾁﾄﾞﾘ', named('千鳥')],
  ['とらっとりあ', (s) => s.doc.nameKana.includes('トラットリア')],
  ['ﾄﾗｯﾄﾘｱ', (s) => s.doc.nameKana.includes('トラットリア')],
  ['Ristorante', named('Ristorante')],
  ['ＥＴＯＩＬＥ', named('Étoile')],
  // Tags, by their words and readings.
  ['禁煙', tagged('禁煙')],
  ['日本酒', tagged('日本酒が豊富')],
  ['にほんしゅ', tagged('日本酒が豊富')],
  ['飲み放題', tagged('飲み放題あり')],
  // Several words: every one must match.
  ['渋谷 焼鳥', both(inArea('shibuya'), ofGenre('yakitori'))],
  ['shinjuku　ramen', both(inArea('shinjuku'), ofGenre('ramen'))],
  ['ぎんざ 鮨', both(inArea('ginza'), ofGenre('sushi'))],
  // One typo in romaji of five letters or more: wrong, missing, extra or swapped letter.
  ['shibyua', inArea('shibuya')],
  ['shubuya', inArea('shibuya')],
  ['ikebukro', inArea('ikebukuro')],
  ['roppongo', inArea('roppongi')],
  ['yakitroi', ofGenre('yakitori')],
  ['nakamegruo', inArea('nakameguro')],
];

describe('search over the seed stores', () => {
  it('has a table of at least 60 queries, each finding some store', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases)('%s finds exactly the stores it names', (query, expected) => {
    const want = idsWhere(expected);
    expect(want.length).toBeGreaterThan(0);
    expect(search(query)).toEqual(want);
  });

  it('forgives a typo only where the romaji of a reading is one edit away (yakitri: やきとり, and 鉄板焼 凛 テッパンヤキリン)', () => {
    expect(search('yakitri')).toEqual(idsWhere((s) => s.doc.genre === 'yakitori' || s.doc.nameKana.replace(/\s/g, '').includes('ヤキリ')));
  });

  it('finds nothing for a word no store has, typo or not, and a short romaji typo is not forgiven', () => {
    expect(search('存在しない店名zz')).toEqual([]);
    expect(search('xylophone')).toEqual([]);
    // Four letters: "suhi" is not forgiven as sushi.
    expect(search('suhi')).toEqual([]);
  });

  it('filters nothing on a keyword of punctuation alone, and a full-width space splits words', () => {
    expect(searchQueryWords('・！？')).toEqual([]);
    expect(searchQueryWords('渋谷　焼鳥')).toHaveLength(2);
  });
});

describe('a watch keyword, checked one store at a time', () => {
  it.each(['焼鳥', 'shibuya', 'ﾗｰﾒﾝ', '渋谷 焼鳥', 'ＧＩＮＺＡ', 'shibyua'])('%s fits the stores the listing finds', (query) => {
    const words = searchQueryWords(query);
    expect(idsWhere((s) => storeMatchesWords(words, s.doc))).toEqual(search(query));
  });
});

describe('the normaliser', () => {
  it('folds width, case, kana, small kana and long vowels one way', () => {
    expect(foldSearchText('ＳＵＳＨＩ')).toBe('sushi');
    expect(foldSearchText('ﾗｰﾒﾝ')).toBe(foldSearchText('らーめん'));
    expect(foldSearchText('らあめん')).toBe(foldSearchText('ラーメン'));
    expect(foldSearchText('トウキョウ')).toBe(foldSearchText('とーきょー'));
    expect(foldSearchText('キョウ')).not.toBe(foldSearchText('キ'));
    expect(foldSearchText('ろっぽんぎ')).toBe(foldSearchText('ろぽんぎ'));
    expect(foldSearchText('Étoile')).toBe('etoile');
    expect(loosen(foldSearchText('ラーメン'))).toBe(foldSearchText('らめん'));
    expect(romajiOfFolded(foldSearchText('しんじゅく'))).toBe('shinjuku');
    expect(romajiOfFolded(loosen(foldSearchText('ちゅうか')))).toBe('chuka');
  });

  it('reads kanji variants as one reading, the longest key first', () => {
    expect(withReadings(foldSearchText('焼鳥'))).toBe(withReadings(foldSearchText('焼き鳥')));
    expect(withReadings(foldSearchText('鮨'))).toBe(withReadings(foldSearchText('寿司')));
    expect(withReadings(foldSearchText('拉麺'))).toBe(foldSearchText('ラーメン'));
    expect(withReadings(foldSearchText('渋谷駅'))).toBe('しぶやえき');
    expect(withReadings(foldSearchText('西新宿駅'))).toBe('にししんじゆくえき');
  });

  it('forgives one typo in part of a text, not two', () => {
    expect(withinOneTypo('shibyua', 'menyashibuyaten')).toBe(true);
    expect(withinOneTypo('shbuya', 'shibuya')).toBe(true);
    expect(withinOneTypo('shibuyya', 'shibuya')).toBe(true);
    expect(withinOneTypo('shbyua', 'shibuya')).toBe(false);
  });

  it('has a reading for every area, station, genre label and tag of the seed', () => {
    const ja = translatorFor('ja');
    const words = new Set<string>([
      ...AREAS.flatMap((a) => [a.name, ...a.stations.map((s) => s.name)]),
      ...GENRES.map((g) => ja(`discovery.genre.${g}`)),
      ...Object.values(FILTER_TAGS),
      ...seed.flatMap((s) => s.store.tags ?? []),
    ]);
    // Read through the table, nothing in kanji is left.
    const unread = [...words].filter((w) => /\p{Script=Han}/u.test(withReadings(foldSearchText(w))));
    expect(unread).toEqual([]);
    expect(Object.keys(SEARCH_READINGS).length).toBeGreaterThan(50);
  });
});
