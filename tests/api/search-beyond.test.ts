/**
 * A search beyond "now", over HTTP on both engines with the server's clock at 00:30 (SUGU_CLOCK),
 * when every sushi place of the seed is closed: 寿司 finds none bookable now and every one under
 * "another day" with its next start on a later business day, in start order; the page says why
 * and shows the start as the one rule for times writes it. An invalid party shows its error and no
 * count; splitting the party is suggested only when no table seats it.
 */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';
import { generateStores } from '../../src/server/db/seed';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays, formatWhen, tokyoInstant } from '../../src/lib/datetime';
import { translatorFor } from '../../src/i18n';
import { BEYOND_GROUP_SIZE } from '../../src/lib/contract/limits';

type Beyond = { id: number; name: string; genre: string; next_slot: { start: string; free_tables: number } };
type Group = { items: Beyond[]; total: number };
type Page = { items: { name: string }[]; total: number; later_today: Group | null; another_day: Group | null };

// 00:30 on the calendar day after tomorrow: the small hours of tomorrow's business day.
const clockAt = tokyoInstant(addTokyoDays(businessDate(new Date()), 2), 30);
const today = businessDate(clockAt);
const sushi = new Set(
  generateStores()
    .filter((s) => s.store.genre === 'sushi')
    .map((s) => s.store.name),
);
const ja = { headers: { 'accept-language': 'ja' } };

forEachApp(
  'Search beyond now',
  (app) => {
    const api = async (query: string): Promise<Page> => {
      const res = await app().fetch(`/api/stores?${query}`, ja);
      expect(res.status).toBe(200);
      return (await res.json()) as Page;
    };

    it('at 00:30 寿司 lists the sushi places under another day with their next start, soonest first', async () => {
      const page = await api(`name=${encodeURIComponent('寿司')}`);
      expect(page.total).toBe(0);
      expect(page.items).toEqual([]);
      expect(page.later_today).toEqual({ items: [], total: 0 });
      const another = page.another_day!;
      expect(another.items.length).toBe(Math.min(BEYOND_GROUP_SIZE, another.total));
      expect(another.items.length).toBeGreaterThan(0);
      for (const s of another.items) {
        expect(s.genre).toBe('sushi');
        expect(businessDate(new Date(s.next_slot.start)) > today).toBe(true);
        expect(s.next_slot.free_tables).toBeGreaterThan(0);
      }
      const starts = another.items.map((s) => Date.parse(s.next_slot.start));
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);

      // "See more" shows the whole group: every sushi place of the seed.
      const more = (await api(`name=${encodeURIComponent('すし')}&more=another`)).another_day!;
      expect(more.total).toBe(another.total);
      expect(new Set(more.items.map((s) => s.name))).toEqual(sushi);
      expect(more.items.slice(0, another.items.length).map((s) => s.next_slot.start)).toEqual(another.items.map((s) => s.next_slot.start));
    });

    it('the groups come on the last page of now only', async () => {
      const first = await api('per_page=1');
      expect(first.total).toBeGreaterThan(1);
      expect(first.later_today).toBeNull();
      expect(first.another_day).toBeNull();
      const last = await api(`per_page=1&page=${first.total}`);
      expect(last.another_day).not.toBeNull();
      expect(last.another_day!.total).toBeGreaterThan(0);
    });

    it('the page says nothing is free now, shows each next start with its date and offers the later groups', async () => {
      const res = await app().fetch(`/stores?name=${encodeURIComponent('寿司')}`, ja);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('data-reason="notNow"');
      expect(html).toContain('今は2名で入れる空きがありません');
      expect(html).toContain('data-beyond="another"');
      expect(html).toContain('href="#beyond-another"');
      expect(html).not.toContain('data-beyond="later"');
      // Splitting a party of two helps nobody.
      expect(html).not.toContain('人数を分けて');
      const first = (await api(`name=${encodeURIComponent('寿司')}`)).another_day!.items[0]!;
      const when = formatWhen(new Date(first.next_slot.start), 'ja', translatorFor('ja'));
      expect(html).toMatch(
        new RegExp(`data-beyond-store-id="${first.id}" data-next-start="[^"]+">[\\s\\S]*?<time datetime="[^"]+">${when.replace(/[()（）]/g, '\\$&')}</time>`),
      );
    });

    it('an invalid party shows its error and no count', async () => {
      const res = await app().fetch('/stores?party=99', ja);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('人数は20以下にしてください');
      expect(html).not.toContain('名で入れるお店');
      expect(html).not.toContain('data-results-count');
      expect(html).not.toContain('data-empty');
    });

    it('a party no table seats is told so, with the split hint and a party size that has places', async () => {
      const html = await (await app().fetch('/stores?party=20', ja)).text();
      expect(html).toContain('data-reason="party"');
      expect(html).toContain('20名で座れる席がありません');
      expect(html).toContain('人数を分けて');
      const suggested = html.match(/data-suggest="party" data-party="(\d+)"/);
      expect(suggested).not.toBeNull();
      expect((await api(`party=${suggested![1]}`)).total).toBeGreaterThan(0);
    });
  },
  { SUGU_CLOCK: clockAt.toISOString() },
);
