/**
 * Every cache kept for the life of the server process has a bound (src/lib/boundedCache.ts): filled
 * with more distinct keys than its bound, as requests could ask for, it holds no more than the bound
 * and still answers correctly for what it forgot.
 */
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/lib/boundedCache';
import { keptCards, storeCardHtml, type CardOptions } from '../../src/server/render/storeCard';
import { keptOptions, optionsHtml } from '../../src/server/render/options';
import { fieldMemo, storeSearchText } from '../../src/lib/searchText';
import { formatDay, formatters } from '../../src/lib/datetime';
import { translatorFor } from '../../src/i18n';
import type { StoreCard } from '../../src/server/stores/search';
import { keptLines, keptRows, ledgerRows, timelineLines } from '../../src/server/render/ledger';
import { dateChoices, keptDates } from '../../src/server/bookings/pages';
import { announcedHolds, announceHold, SENT_MAX, watchAlerts } from '../../src/server/watches/alerts';
import type { WatchAlert } from '../../src/lib/contract/watches';
import { LOCALES } from '../../src/i18n/locales';
import { timesUnder } from '../../src/lib/datetime';
import type { StoreBookingJson } from '../../src/lib/contract/staff';

describe('BoundedCache', () => {
  it('holds at most its bound, forgetting the oldest added', () => {
    const c = new BoundedCache<number, string>(3);
    for (let i = 0; i < 10; i++) c.set(i, `v${i}`);
    expect(c.size).toBe(3);
    expect([...c.keys()]).toEqual([7, 8, 9]);
    expect(c.get(6)).toBeUndefined();
    expect(c.get(9)).toBe('v9');
  });

  it('counts a key set again once, as the newest', () => {
    const c = new BoundedCache<string, number>(2);
    c.set('a', 1).set('b', 2).set('a', 3).set('c', 4);
    expect([...c.keys()]).toEqual(['a', 'c']);
    expect(c.get('a')).toBe(3);
  });

  it('refuses a bound that is no bound', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
    expect(() => new BoundedCache(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('the server’s caches stay within their bounds', () => {
  it('listing cards: at most 4,000 markups, each card still drawn as it is', () => {
    const options: CardOptions = { favourite: false, signedIn: false, party: 2, priority: false, live: true, defineHeart: false };
    const t = translatorFor('ja');
    const card = (id: number): StoreCard => ({
      id,
      name: `店 ${id}`,
      nameKana: 'ミセ',
      genre: 'izakaya',
      areaId: 1,
      areaName: '渋谷',
      station: '渋谷駅',
      walkMinutes: 3,
      budgetMin: 3000,
      budgetMax: 4999,
      photo: null,
      lat: 35.6,
      lng: 139.7,
      distanceM: null,
      nextSlots: [],
      freeTables: 0,
      arrival: null,
    });
    expect(keptCards.max).toBe(4_000);
    for (let id = 1; id <= keptCards.max + 500; id++) storeCardHtml(card(id), options, 'ja', t);
    expect(keptCards.size).toBe(keptCards.max);
    // The first cards were forgotten; drawn again, they are still right.
    expect(storeCardHtml(card(1), options, 'ja', t)).toContain('>店 1</a>');
  });

  it('select options: at most 2,000 lists', () => {
    expect(keptOptions.max).toBe(2_000);
    for (let i = 0; i < keptOptions.max + 300; i++) optionsHtml(`list-${i}`, '', () => [{ value: String(i), label: `選択 ${i}` }]);
    expect(keptOptions.size).toBe(keptOptions.max);
    expect(optionsHtml('list-0', '', () => [{ value: '0', label: '選択 0' }])).toBe('<option value="0">選択 0</option>');
  });

  it('search text of field values: at most 20,000 values', () => {
    expect(fieldMemo.max).toBe(20_000);
    for (let i = 0; i < fieldMemo.max / 4 + 100; i++) {
      storeSearchText({ name: `店名${i}`, nameKana: `カナ${i}`, genre: [`genre${i}`], areaName: `地域${i}`, station: '渋谷駅', tags: [] });
    }
    expect(fieldMemo.size).toBe(fieldMemo.max);
    expect(storeSearchText({ name: '店名0', nameKana: '', genre: [], areaName: '', station: '', tags: [] }).strict).toContain('店名0');
  });

  it('date formatters: at most 64, whatever locales are asked for', () => {
    expect(formatters.max).toBe(64);
    const at = new Date('2026-11-24T12:00:00+09:00');
    const locales = Intl.DateTimeFormat.supportedLocalesOf([
      'ja',
      'en',
      'ko',
      'zh-CN',
      'zh-TW',
      'fr',
      'de',
      'es',
      'it',
      'pt',
      'th',
      'vi',
      'id',
      'ru',
      'ar',
      'hi',
      'nl',
      'sv',
      'pl',
      'tr',
      'uk',
      'cs',
      'da',
      'fi',
      'el',
      'he',
      'hu',
      'ms',
      'nb',
      'ro',
      'sk',
      'bg',
      'hr',
      'lt',
      'lv',
      'et',
      'sl',
      'sr',
      'ca',
      'fa',
    ]);
    for (const l of locales) for (const region of ['', '-u-ca-gregory', '-u-nu-latn']) formatDay(at, `${l}${region}`);
    expect(locales.length * 3).toBeGreaterThan(formatters.max);
    expect(formatters.size).toBe(formatters.max);
    expect(formatDay(at, 'ja')).toBe('11月24日(火)');
  });

  it('ledger rows: at most 8,000 markups; timeline lines: at most 2,000', () => {
    const day = '2026-11-24';
    const iso = (hhmm: string) => `${day}T${hhmm}:00+09:00`;
    const t = translatorFor('ja');
    const booking = (id: number): StoreBookingJson => ({
      id,
      code: `SG-${id}`,
      store_id: 1,
      start: iso('19:00'),
      end: iso('21:00'),
      party_size: 2,
      status: 'confirmed',
      table: { id: 10, label: 'T1', kind: 'table' },
      contact: { name: `客 ${id}`, name_kana: 'キャク', phone: '090-1234-5678', email: '', guest: true },
      note: '',
      seat_preference: null,
      attendance: null,
      store_cancel_reason: null,
      undo_until: null,
      late: null,
      release_from: iso('19:15'),
      created_at: iso('10:00'),
      updated_at: iso('10:00'),
      cancelled_at: null,
    });
    const o = {
      action: '/list-booking-manage',
      at: Date.parse(iso('18:00')),
      date: day,
      locale: 'ja' as const,
      time: timesUnder(day, t),
      t,
      changing: () => false,
      cancelling: () => false,
    };
    expect(keptRows.max).toBe(8_000);
    ledgerRows(
      Array.from({ length: keptRows.max + 300 }, (_, i) => booking(i + 1)),
      o,
    );
    expect(keptRows.size).toBe(keptRows.max);
    const first = ledgerRows([booking(1)], o)
      .map((p) => Buffer.from(p as Uint8Array).toString('utf8'))
      .join('');
    expect(first).toContain('客 1');

    expect(keptLines.max).toBe(2_000);
    const tables = Array.from({ length: keptLines.max + 300 }, (_, i) => ({
      id: i + 1,
      label: `卓${i + 1}`,
      kind: 'table' as const,
      minParty: 1,
      maxParty: 4,
      online: true,
      bars: [],
    }));
    timelineLines(tables, null, day, 'ja', o.time, t);
    expect(keptLines.size).toBe(keptLines.max);
    expect(Buffer.from(timelineLines(tables.slice(0, 1), null, day, 'ja', o.time, t)).toString('utf8')).toContain('卓1');
  });

  it('bookable dates: one list per language, for the business day only', () => {
    const t = (_key: 'time.today', params: { date: string }) => `今日 ${params.date}`;
    for (let d = 0; d < 5; d++) for (const { code } of LOCALES) dateChoices(code, t, new Date(Date.parse('2026-11-24T12:00:00+09:00') + d * 86_400_000));
    expect(keptDates.size).toBe(LOCALES.length);
    expect([...keptDates.keys()].every((k) => k.endsWith('2026-11-28'))).toBe(true);
  });

  it('watch holds already announced: at most 50,000, and a hold still remembered is not announced twice', () => {
    const alert = (holdId: number): WatchAlert => ({
      watch_id: holdId,
      store_id: 1,
      store_name: '店',
      party_size: 2,
      start: '2026-11-24T13:00:00+09:00',
      href: `/watches/hold/${holdId}`,
      hold_id: holdId,
      deadline: '2026-11-24T12:05:00+09:00',
    });
    for (let id = 1; id <= SENT_MAX + 500; id++) announceHold('u:1', alert(id));
    expect(announcedHolds.size).toBeGreaterThan(0);
    expect(announcedHolds.size).toBeLessThanOrEqual(SENT_MAX);
    // The newest are still remembered: heard again from the feed, nothing is sent twice.
    let heard = 0;
    const listen = () => heard++;
    watchAlerts.on('alert', listen);
    announceHold('u:1', alert(SENT_MAX + 500));
    announceHold('u:1', alert(SENT_MAX + 501));
    watchAlerts.off('alert', listen);
    expect(heard).toBe(1);
  });
});
