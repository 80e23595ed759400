/**
 * Keyword search over HTTP on both engines, with the server's clock at 19:01 tomorrow (SUGU_CLOCK,
 * when the seed's dinner places are open): shibuya, 焼鳥, 拉麺 and sushi each find exactly the demo
 * stores of that area or genre that are bookable now. The expected stores come from the seed's own
 * generator, the bookable ones from the listing without a keyword.
 */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { generateStores } from '../../src/server/db/seed';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays, tokyoInstant } from '../../src/lib/datetime';

type Card = { id: number; name: string; genre: string; area: { name: string } };
type Page = { items: Card[]; total: number };

const clockAt = tokyoInstant(addTokyoDays(businessDate(new Date()), 1), 19 * 60 + 1);
const seed = generateStores();
const namesWhere = (p: (s: (typeof seed)[number]['store']) => boolean) => new Set(seed.filter((s) => p(s.store)).map((s) => s.store.name));

const CASES = [
  { keyword: 'shibuya', names: namesWhere((s) => s.areaSlug === 'shibuya') },
  { keyword: '焼鳥', names: namesWhere((s) => s.genre === 'yakitori') },
  { keyword: '拉麺', names: namesWhere((s) => s.genre === 'ramen') },
  { keyword: 'sushi', names: namesWhere((s) => s.genre === 'sushi') },
  { keyword: '焼肉', names: namesWhere((s) => s.genre === 'yakiniku') },
  { keyword: '渋谷', names: namesWhere((s) => s.areaSlug === 'shibuya') },
];

forEachApp(
  'Japanese-aware keyword search',
  (app) => {
    /** Every page of a listing, as names. */
    const all = async (query: string): Promise<string[]> => {
      const names: string[] = [];
      for (let page = 1; ; page++) {
        const res = await app().fetch(`/api/stores?per_page=50&page=${page}${query}`, { headers: { 'accept-language': 'ja' } });
        expect(res.status).toBe(200);
        const body = (await res.json()) as Page;
        names.push(...body.items.map((c) => c.name));
        if (names.length >= body.total || !body.items.length) return names;
      }
    };

    it.each(CASES)('$keyword finds the bookable stores of its area or genre, and only those', async ({ keyword, names }) => {
      const bookable = await all('');
      const expected = bookable.filter((n) => names.has(n)).sort();
      // Dinner time: some of them are bookable, so the check cannot pass on an empty answer.
      expect(expected.length).toBeGreaterThan(0);
      expect((await all(`&name=${encodeURIComponent(keyword)}`)).sort()).toEqual(expected);
    });

    it('answers the kanji, kana, half-width and romaji spellings alike', async () => {
      const ramen = (await all(`&name=${encodeURIComponent('拉麺')}`)).sort();
      expect(ramen.length).toBeGreaterThan(0);
      for (const spelling of ['ラーメン', 'らーめん', 'ﾗｰﾒﾝ', 'ramen', 'ＲＡＭＥＮ'])
        expect((await all(`&name=${encodeURIComponent(spelling)}`)).sort()).toEqual(ramen);
    });
  },
  { SUGU_CLOCK: clockAt.toISOString() },
);
