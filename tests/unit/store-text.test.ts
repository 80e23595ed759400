/**
 * Store data in the reader's language (src/lib/storeText.ts, src/lib/format.ts): every seed
 * store's name romanised, the seed's areas, stations and features translated, and yen written as
 * each language writes them.
 */
import { describe, expect, it } from 'vitest';
import { generateStores } from '../../src/server/db/seed';
import { AREAS, COMMON_TAGS, TAG_POOL } from '../../src/server/db/seed-data';
import { formatYen, formatYenRange, romanName } from '../../src/lib/format';
import { placeName, shownName, shownNameText, stationName, tagName } from '../../src/lib/storeText';
import { translatorFor } from '../../src/i18n';
import { LOCALE_CODES } from '../../src/i18n/locales';

/** Kana or kanji (the Japanese a reader of another language cannot read). */
const japanese = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
const seed = generateStores();
const en = translatorFor('en');

describe('romanised store names', () => {
  it('reads kana as Hepburn, long vowels plain, each word capitalised', () => {
    expect(romanName('ラーメン タカ')).toBe('Ramen Taka');
    expect(romanName('やきにく たけ')).toBe('Yakiniku Take');
    expect(romanName('ギョウザ・キッチン')).toBe('Gyoza Kitchin');
    expect(romanName('ｼﾌﾞﾔ')).toBe('Shibuya');
    expect(romanName('クラアン')).toBe('Kuraan');
    expect(romanName('カフェ ヴィオラ')).toBe('Kafe Viora');
    expect(romanName('メンヤ マンゲツ')).toBe("Men'ya Mangetsu");
  });

  it('has a Latin name for every seed store, with no kana or kanji left', () => {
    expect(seed.length).toBeGreaterThan(50);
    for (const { store } of seed) {
      const shown = shownName(store.name, store.nameKana, 'en');
      expect(shown.name, store.nameKana).toMatch(/^[\p{Lu}\d][\p{Script=Latin}\d&'. -]+$/u);
      expect(shown.name).not.toMatch(japanese);
      expect(shown.original).toBe(japanese.test(store.name) ? store.name : null);
    }
  });

  it('keeps Latin words of a name and writes a branch as maps do', () => {
    expect(shownName('Wine Bar Drift 新橋店', 'ワインバー ドリフト シンバシテン', 'en').name).toBe('Wine Bar Drift Shinbashi-ten');
    expect(shownName('麺屋 満月 渋谷店', 'メンヤ マンゲツ シブヤテン', 'fr')).toEqual({ name: "Men'ya Mangetsu Shibuya-ten", original: '麺屋 満月 渋谷店' });
  });

  it('keeps the Japanese name for Japanese readers', () => {
    const { store } = seed[0]!;
    expect(shownName(store.name, store.nameKana, 'ja')).toEqual({ name: store.name, original: null });
    expect(shownNameText(store.name, store.nameKana, 'en')).toBe(`${shownName(store.name, store.nameKana, 'en').name} (${store.name})`);
  });
});

describe('places and features from the translations', () => {
  const tags = [...new Set([...Object.values(TAG_POOL).flat(), ...COMMON_TAGS, '個室あり', '24時間営業', '深夜営業', '駅近'])];

  it.each(LOCALE_CODES.filter((l) => l !== 'ja' && l !== 'zh'))('leaves no Japanese in the seed’s areas, stations and features in %s', (locale) => {
    const t = translatorFor(locale);
    for (const area of AREAS) {
      expect(placeName(area.name, locale, t)).not.toMatch(japanese);
      for (const s of area.stations) expect(stationName(s.name, locale, t)).not.toMatch(japanese);
    }
    for (const tag of tags) expect(tagName(tag, locale, t), tag).not.toMatch(japanese);
  });

  it('names them in English as a visitor reads the signs', () => {
    expect(placeName('渋谷', 'en', en)).toBe('Shibuya');
    expect(stationName('渋谷駅', 'en', en)).toBe('Shibuya Station');
    expect(en('discovery.card.access', { station: stationName('渋谷駅', 'en', en), minutes: 1 })).toBe('1 min walk from Shibuya Station');
    expect(tagName('日本酒が豊富', 'en', en)).toBe('Wide sake selection');
    expect(tagName('クレジットカード可', 'en', en)).toBe('Cards accepted');
  });

  it('leaves Japanese as written, and what it does not know as the store wrote it', () => {
    const ja = translatorFor('ja');
    expect(stationName('渋谷駅', 'ja', ja)).toBe('渋谷駅');
    expect(tagName('日本酒が豊富', 'ja', ja)).toBe('日本酒が豊富');
    expect(stationName('高円寺駅', 'en', en)).toBe('高円寺駅');
    expect(tagName('猫がいる', 'en', en)).toBe('猫がいる');
  });
});

describe('yen in each language', () => {
  it('keeps Japanese as its menus write it', () => {
    expect(formatYen(3000, 'ja')).toBe('¥3,000');
    expect(formatYenRange(1000, 2000, 'ja')).toBe('¥1,000〜¥2,000');
  });

  it('puts the symbol where the language does', () => {
    expect(formatYen(3000, 'en')).toBe('¥3,000');
    expect(formatYen(3000, 'de')).toBe('3.000\u00a0¥');
    expect(formatYenRange(1000, 2000, 'en')).toBe('¥1,000 – ¥2,000');
  });

  it('reads an Arabic budget from the lower bound, the symbol after the amounts', () => {
    const budget = formatYenRange(2500, 4999, 'ar');
    const digits = (s: string) => s.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
    const amounts = [...digits(budget).matchAll(/\d[\d,٬.]*/g)].map((m) => m[0]);
    expect(amounts.map((a) => Number(a.replace(/[,٬.]/g, '')))).toEqual([2500, 4999]);
    expect(budget).not.toContain('〜');
    expect(budget.indexOf('¥')).toBeGreaterThan(budget.search(/[\d\u0660-\u0669]/));
    expect(budget.split('¥').length - 1).toBe(1);
  });
});
