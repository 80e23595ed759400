/**
 * A watch is a promise to tell of a freed start: one whose window cannot open is refused with the
 * reason, on both engines, with the server's clock at 23:53 of tomorrow's business day. The tiny
 * fixture store takes bookings 17:00–23:30 (a two-hour stay: last start 21:30) and is closed the
 * day after; the other fixture store is open around the clock. Refused on the API (400, the
 * reason as the field's error) and on the plain form of /watches (the form again, the reason beside it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { App, Engine } from '../helpers/app';
import { startWithFixture, type Fixture } from './booking-fixtures';
import { onWatchDay, watchClock, watchDay } from './watch-fixtures';
import { storeHours } from '../../src/server/db/schema';
import { addTokyoDays, tokyoInstant, tokyoParts, toTokyoIso } from '../../src/lib/datetime';

type Json = Record<string, any>;
const closedDay = addTokyoDays(watchDay, 1);
const openDay = addTokyoDays(watchDay, 2);
const on = (day: string, hh: number) => toTokyoIso(tokyoInstant(day, hh * 60));

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`watches whose window cannot open are refused [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, watchClock(23, 53), async (db, f) => {
        const shut = tokyoParts(tokyoInstant(closedDay, 12 * 60)).weekday;
        await db.delete(storeHours).where(eq(storeHours.storeId, f.tinyStoreId));
        await db
          .insert(storeHours)
          .values(
            [0, 1, 2, 3, 4, 5, 6].filter((w) => w !== shut).map((weekday) => ({ storeId: f.tinyStoreId, weekday, opensMin: 17 * 60, closesMin: 23 * 60 + 30 })),
          );
        return {};
      }));
    });
    afterAll(() => cleanup?.());

    const watch = (json: Json) =>
      app.fetch('/api/watches', { method: 'POST', cookie: fx.users[0]!.cookie, json: { party_size: 2, ...json }, headers: { 'accept-language': 'ja' } });
    const refusal = async (json: Json) => {
      const res = await watch(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      return ((await res.json()) as Json).error.fields as Record<string, string>;
    };

    it('after the day’s last start, the next hour at that store is refused: 本日の営業は終了しました', async () => {
      expect(await refusal({ store_id: fx.tinyStoreId })).toEqual({ from: '本日の営業は終了しました。空席通知は次の営業日の時間で設定してください' });
      // Any later window that day as well.
      expect(await refusal({ store_id: fx.tinyStoreId, from: onWatchDay(23, 55), until: onWatchDay(23, 59) })).toEqual({
        from: '本日の営業は終了しました。空席通知は次の営業日の時間で設定してください',
      });
      // The store open around the clock takes the same watch.
      expect((await watch({ store_id: fx.storeId })).status).toBe(201);
    });

    it('a closed day, hours the store does not take, and beyond the booking horizon are refused, each with its reason', async () => {
      expect(await refusal({ store_id: fx.tinyStoreId, from: on(closedDay, 18), until: on(closedDay, 19) })).toEqual({
        from: 'その日はお店の休業日のため、空席通知を設定できません',
      });
      expect(await refusal({ store_id: fx.tinyStoreId, from: on(openDay, 10), until: on(openDay, 11) })).toEqual({
        from: 'その時間帯はお店の受付時間外です。営業時間内の時間を選んでください',
      });
      expect(await refusal({ store_id: fx.storeId, from: on(addTokyoDays(watchDay, 14), 18), until: on(addTokyoDays(watchDay, 14), 19) })).toEqual({
        until: '指定できるのは予約できる日（今日から13日後）までです',
      });
      // In English too.
      const en = await app.fetch('/api/watches', {
        method: 'POST',
        cookie: fx.users[0]!.cookie,
        json: { party_size: 2, store_id: fx.tinyStoreId, from: on(closedDay, 18), until: on(closedDay, 19) },
        headers: { 'accept-language': 'en' },
      });
      expect(((await en.json()) as Json).error.fields.from).toBe('The restaurant is closed that day, so a seat alert cannot be set');
      // The day after, in its hours, is a watch that can be kept.
      const kept = await watch({ store_id: fx.tinyStoreId, from: on(openDay, 18), until: on(openDay, 19) });
      expect(kept.status).toBe(201);
      expect(((await kept.json()) as Json).store_id).toBe(fx.tinyStoreId);
    });

    it('the plain form of /watches shows the reason beside what was chosen, and keeps it', async () => {
      const res = await app.fetch('/watches', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
        body: new URLSearchParams({ store_id: String(fx.tinyStoreId), party_size: '2', minutes: '60', email: 'late@example.jp' }),
      });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toMatch(/data-field="from">本日の営業は終了しました。空席通知は次の営業日の時間で設定してください</);
      expect(html).toContain('late@example.jp');
      // Nothing was made for that address's device.
      expect(res.headers.getSetCookie().some((c) => c.startsWith('sugu_watch='))).toBe(false);
    });
  });
}
