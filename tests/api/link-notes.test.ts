/**
 * A booking link whose values cannot be honoured says so beside the field, on both engines: the
 * page the server renders (the island's first state, and the whole form without JavaScript) carries
 * a note for a party the store cannot seat, a day outside the 13 days, and a start that was never
 * offered (past, or not on the 15-minute marks), and none for a link it honours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, Engine } from '../helpers/app';
import { startWithFixture, type Fixture } from './booking-fixtures';
import { onWatchDay, watchClock, watchDay } from './watch-fixtures';
import { addTokyoDays } from '../../src/lib/datetime';

const note = (html: string, field: string) => html.match(new RegExp(`data-testid="link-note-${field}"[^>]*>([^<]*)<`))?.[1];

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`booking links that cannot be honoured [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, watchClock(18)));
    });
    afterAll(() => cleanup?.());

    const page = async (query: Record<string, string>) => {
      const res = await app.fetch(`/store/${fx.tinyStoreId}/booking-without?${new URLSearchParams(query)}`, { headers: { 'accept-language': 'ja' } });
      expect(res.status).toBe(200);
      return res.text();
    };

    it('a party it cannot seat, a day outside the window, a start never offered: each said beside its field', async () => {
      expect(note(await page({ party: '99' }), 'party_size')).toBe(
        '人数「99」ではご予約いただけません（このお店は1〜2名まで）。2名の空き時間を表示しています。',
      );
      expect(note(await page({ party: '0' }), 'party_size')).toContain('人数「0」ではご予約いただけません');
      expect(note(await page({ party: '4' }), 'party_size')).toContain('2名の空き時間を表示しています');
      expect(note(await page({ date: addTokyoDays(watchDay, 30) }), 'date')).toMatch(/^「\d+月\d+日\(.\)」はご予約いただける日ではありません/);
      expect(note(await page({ start: onWatchDay(12), party: '2' }), 'start')).toMatch(/^「\d+月\d+日\(.\) 12:00」はご予約いただける時刻ではありません/);
      expect(note(await page({ start: onWatchDay(19, 7), party: '2' }), 'start')).toContain('19:07」はご予約いただける時刻ではありません');
    });

    it('a link it honours carries no note, and its start stays chosen', async () => {
      const html = await page({ start: onWatchDay(19), party: '2', date: watchDay });
      for (const field of ['party_size', 'date', 'start']) expect(note(html, field)).toBeUndefined();
      expect(html).toMatch(
        new RegExp(`<input[^>]*checked[^>]*value="${onWatchDay(19).replace('+', '\\+')}"|<input[^>]*value="${onWatchDay(19).replace('+', '\\+')}"[^>]*checked`),
      );
    });
  });
}
