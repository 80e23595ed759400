/**
 * A listing card's markup is kept by what it shows (src/server/render/storeCard.ts): the same card
 * again is the same string, and any change a diner must see (a start taken, a count, the heart, a
 * name, the party, the language) gives the new markup, never the kept one. Text and attributes are
 * escaped as Astro escapes them.
 */
import { describe, expect, it } from 'vitest';
import { storeCardHtml, type CardOptions } from '../../src/server/render/storeCard';
import { translatorFor } from '../../src/i18n';
import type { StoreCard } from '../../src/server/stores/search';

const at = (iso: string) => new Date(iso);
const slot = (iso: string) => ({ start: at(iso), end: new Date(at(iso).getTime() + 2 * 3600_000), freeTables: 2 });
const card = (over: Partial<StoreCard> = {}): StoreCard => ({
  id: 7,
  name: '炭火 とり源',
  nameKana: 'スミビ トリゲン',
  genre: 'izakaya',
  areaId: 1,
  areaName: '渋谷',
  station: '渋谷駅',
  walkMinutes: 3,
  budgetMin: 3000,
  budgetMax: 4999,
  photo: { src: '/photos/izakaya-1.svg', width: 640, height: 400, alt: '炭火 とり源の料理' },
  lat: 35.6,
  lng: 139.7,
  distanceM: null,
  nextSlots: [slot('2026-11-24T19:00:00+09:00'), slot('2026-11-24T19:15:00+09:00')],
  freeTables: 2,
  arrival: null,
  ...over,
});
const options: CardOptions = { favourite: false, signedIn: false, party: 2, priority: false, live: true, defineHeart: false };
const ja = translatorFor('ja');
const html = (c: StoreCard, o: Partial<CardOptions> = {}, locale: 'ja' | 'en' = 'ja') => storeCardHtml(c, { ...options, ...o }, locale, translatorFor(locale));

/** Kana or kanji. */
const japanese = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

describe('listing card markup', () => {
  it('shows a reader of English the store in English: the name romanised beside the Japanese, area, station, genre and budget translated', () => {
    const out = html(card(), {}, 'en');
    expect(out).toContain('Sumibi Torigen <span lang="ja" class="font-normal">(炭火 とり源)</span>');
    expect(out).toContain('<span>Shibuya</span>');
    expect(out).toContain('3 min walk from Shibuya Station');
    expect(out).toContain('¥3,000 – ¥4,999');
    // Outside the parenthesised name (and what is marked as the store's Japanese), no kana or kanji.
    const shown = out.replace(/<span lang="ja"[^>]*>[^<]*<\/span>/g, '').replace(/<[^>]*>/g, ' ');
    expect(shown).not.toMatch(japanese);
    expect(html(card()).replace(/<[^>]*>/g, ' ')).toMatch(japanese);
  });

  it('writes an Arabic budget from its lower bound, the symbol after it', () => {
    const out = storeCardHtml(card(), options, 'ar', translatorFor('ar'));
    expect(out).toMatch(/3,000–4,999\s?JP¥/);
  });

  it('shows the card: name, budget, starts as booking links, free tables, the heart', () => {
    const out = html(card());
    expect(out).toContain('>炭火 とり源</a>');
    expect(out).toContain('¥3,000〜¥4,999');
    expect(out).toContain('href="/store/7/booking-without?party=2&amp;start=2026-11-24T19%3A00%3A00%2B09%3A00"');
    expect(out).toContain('<time datetime="2026-11-24T19:15:00+09:00">19:15</time>');
    expect(out).toContain('<span data-live-free>2</span>');
    expect(out).toContain('action="/favourites/7"');
    expect(out).not.toContain('data-live-when-bookable hidden');
    expect(html(card())).toBe(out);
  });

  it('never gives the kept markup for a card that changed', () => {
    const before = html(card());
    // The 19:00 start taken, one table left.
    const after = html(card({ nextSlots: [slot('2026-11-24T19:15:00+09:00')], freeTables: 1 }));
    expect(after).not.toBe(before);
    expect(after).not.toContain('19:00');
    expect(after).toContain('<span data-live-free>1</span>');
    // Full now: the starts hidden, the "not now" line shown.
    const full = html(card({ nextSlots: [], freeTables: 0 }));
    expect(full).toContain('data-live-when-bookable hidden');
    expect(full).toContain(ja('discovery.card.notNow', { count: 2 }));
    // The heart, the party, the name, the language, a signed-in diner's booking link.
    expect(html(card(), { favourite: true })).toContain('aria-pressed="true"');
    expect(html(card(), { party: 4 })).toContain('href="/store/7?party=4"');
    expect(html(card({ name: '炭火 とり源 本店' }))).toContain('>炭火 とり源 本店</a>');
    expect(html(card(), {}, 'en')).toContain(translatorFor('en')('discovery.card.budget'));
    expect(html(card(), { signedIn: true })).toContain('href="/store/7/booking?party=2&amp;start=');
    // Back to the first card: the first markup again.
    expect(html(card())).toBe(before);
  });

  it('escapes what the store wrote', () => {
    const out = html(card({ name: '<b>"鳥" & Co\'s</b>', photo: { src: '/p.svg?a=1&b="2"', width: 1, height: 1, alt: 'x"y' } }));
    expect(out).toContain('>&lt;b&gt;&quot;鳥&quot; &amp; Co&#39;s&lt;/b&gt;</a>');
    expect(out).toContain(`aria-label="${ja('discovery.favourite.add')}: <b>&quot;鳥&quot; &amp; Co's</b>"`);
    expect(out).toContain('src="/p.svg?a=1&amp;b=&quot;2&quot;"');
    expect(out).toContain('alt="x&quot;y"');
  });
});
