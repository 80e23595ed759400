/**
 * Two instances on one PostgreSQL, both with their clocks at 18:00 tomorrow
 * (tests/api/watch-fixtures.ts): the diner's watch stream is already open on B when the diner
 * makes a new watch through A, so B learns of that watch only from the `sugu_watches` channel
 * (B read the diner's watches when the stream opened, and there were none); a cancellation
 * through A that frees the watched start then reaches the stream on B, once, with its link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type App } from '../helpers/app';
import { startWithFixture, type Fixture } from './booking-fixtures';
import { SseStream } from './live-sse';
import { alertsOf, nthAlert, onWatchDay, watchClock } from './watch-fixtures';

describe('a watch made through one instance reaches a stream already open on another', () => {
  let a: App;
  let b: App;
  let fx: Fixture;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ app: a, fx, cleanup } = await startWithFixture('postgres', watchClock(18)));
    b = await startApp('postgres', watchClock(18), { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.stop();
    await cleanup?.();
  });

  it('a watch made through A after the stream opened on B: a cancellation through A reaches B', async () => {
    const diner = fx.users[0]!;
    // The bar's one table taken at 19:00 through A: no start from 17:15 to 20:45 is free for two.
    const held = await a.fetch('/api/guest-bookings', {
      method: 'POST',
      json: {
        store_id: fx.tinyStoreId,
        start: onWatchDay(19),
        party_size: 2,
        name: '先客 太郎',
        name_kana: 'センキャク タロウ',
        phone: '090-2222-3333',
        email: 'first-feed@example.jp',
      },
    });
    expect(held.status).toBe(201);
    const booking = (await held.json()) as { id: number; edit_token: string };

    // B serves the diner's page, with its availability index built, before the diner has any watch.
    expect((await b.fetch(`/api/stores/${fx.tinyStoreId}/availability?party=2`)).status).toBe(200);
    const onB = await SseStream.open(b, '/api/watches/stream', { cookie: diner.cookie });
    try {
      const made = await a.fetch('/api/watches', {
        method: 'POST',
        cookie: diner.cookie,
        json: { store_id: fx.tinyStoreId, party_size: 2, from: onWatchDay(19), until: onWatchDay(20) },
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: number };

      const cancelled = await a.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
      expect(cancelled.status).toBe(200);
      const alert = await nthAlert(onB, 1);
      expect(alert).toMatchObject({ watch_id: id, store_id: fx.tinyStoreId, party_size: 2, start: onWatchDay(19) });
      // The start is held for the diner: the alert opens the hold, which B serves to them.
      expect(alert.href).toBe(`/watches/hold/${alert.hold_id}`);
      const hold = await b.fetch(`/api/watch-holds/${alert.hold_id}`, { cookie: diner.cookie });
      expect(hold.status).toBe(200);
      expect(await hold.json()).toMatchObject({ watch_id: id, state: 'offered', deadline: alert.deadline });
      expect(alertsOf(onB)).toHaveLength(1);
    } finally {
      onB.close();
    }
  });
});
