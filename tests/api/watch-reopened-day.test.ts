/**
 * A closed day opened again fires the watches on it, on both engines, with the server's clock at
 * 16:00 tomorrow (tests/api/watch-fixtures.ts): a diner watches the evening store for 19:00–20:00,
 * the store closes that day (臨時休業), then removes the closure → 19:00 is held for the diner, whose
 * open page hears one alert linking the hold, and one mail with the hold's own link arrives through
 * a real SMTP server. Closing and opening the day once more tells nobody again; once the diner has
 * booked the hold, a later alert and mail of their other watch, sent after those would have been,
 * show that nothing more came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { until, type App, type Engine } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { bearer, staffLogin, startWithStaff, type StaffFixture } from './store-fixtures';
import type { Fixture } from './booking-fixtures';
import { SseStream } from './live-sse';
import { alertsOf, nthAlert, onWatchDay, watchClock, watchDay } from './watch-fixtures';
import { closureChangeSchema } from '../../src/lib/contract/staff';

const guest = { name: '先客 太郎', name_kana: 'センキャク タロウ', phone: '090-2222-3333', email: 'first-reopen@example.jp' };

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`a reopened day fires its watches [${engine}]`, () => {
    let smtp: TestSmtp;
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      smtp = await startSmtp();
      ({ app, fx, cleanup } = await startWithStaff(engine, { ...watchClock(16), SMTP_URL: smtp.url }));
    });
    afterAll(async () => {
      await cleanup?.();
      await smtp?.close();
    });

    it('the store removes a closure: the watch of that day’s times fires once, in the page and by mail', async () => {
      const staff = bearer((await staffLogin(app, fx.staffA)).token);
      const diner = fx.users[0]!;
      const close = async () => {
        const res = await app.fetch('/api/store/closures', { method: 'PUT', headers: staff, json: { store_id: fx.eveningStoreId, date: watchDay, hours: [] } });
        expect(res.status).toBe(200);
        return z.parse(closureChangeSchema, await res.json()).closure!.id;
      };
      const reopen = async (id: number) => expect((await app.fetch(`/api/store/closures/${id}`, { method: 'DELETE', headers: staff })).status).toBe(200);
      const watch = async (storeId: number, from: string, until: string) => {
        const res = await app.fetch('/api/watches', {
          method: 'POST',
          cookie: diner.cookie,
          headers: { 'accept-language': 'ja' },
          json: { store_id: storeId, party_size: 2, from, until },
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { id: number }).id;
      };

      // Watched while the day is open (a watch on a day already closed is refused: tests/api/watch-refusals.test.ts), then closed.
      const evening = await watch(fx.eveningStoreId, onWatchDay(19), onWatchDay(20));
      const closed = await close();
      expect(
        ((await (await app.fetch(`/api/stores/${fx.eveningStoreId}/availability?date=${watchDay}&party=2`)).json()) as { slots: unknown[] }).slots,
      ).toEqual([]);
      // The diner's other watch: the bar's one table, taken at 21:00, is given back at the end.
      const held = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest, store_id: fx.tinyStoreId, start: onWatchDay(21), party_size: 2 },
      });
      expect(held.status).toBe(201);
      const booking = (await held.json()) as { id: number; edit_token: string };
      const bar = await watch(fx.tinyStoreId, onWatchDay(21), onWatchDay(22));

      const stream = await SseStream.open(app, '/api/watches/stream', { cookie: diner.cookie });
      try {
        await reopen(closed);
        const alert = await nthAlert(stream, 1);
        expect(alert).toMatchObject({ watch_id: evening, store_id: fx.eveningStoreId, store_name: '夕方食堂', party_size: 2, start: onWatchDay(19) });
        expect(alert.href).toBe(`/watches/hold/${alert.hold_id}`);
        const [mail] = await smtp.waitFor(1, 60_000, diner.email);
        expect(mail!.subject).toBe('【すぐ予約】夕方食堂 19:00の席をあなたのために確保しました');
        expect(mail!.parsed.text).toContain(`/watches/hold/${alert.hold_id}?token=`);

        // The same starts closed and freed again: already told, so neither the page nor the mail hears of them twice.
        await reopen(await close());
        // The diner books the held start (one open offer per diner: the next may be theirs now).
        expect((await app.fetch(`/api/watch-holds/${alert.hold_id}/claim`, { method: 'POST', cookie: diner.cookie, json: {} })).status).toBe(200);
        const cancelled = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
        expect(cancelled.status).toBe(200);
        expect(await nthAlert(stream, 2)).toMatchObject({ watch_id: bar, store_id: fx.tinyStoreId, start: onWatchDay(21) });
        const holdMails = () => smtp.received.filter((m) => m.to === diner.email && m.subject.includes('確保しました'));
        await smtp.waitFor(3, 60_000, diner.email);
        await until(async () => holdMails().length >= 2, 'the second hold mail');
        expect(holdMails()[1]!.subject).toBe('【すぐ予約】極小バー 21:00の席をあなたのために確保しました');
        expect(alertsOf(stream).map((a) => a.watch_id)).toEqual([evening, bar]);
        expect(holdMails()).toHaveLength(2);
      } finally {
        stream.close();
      }
    });
  });
}
