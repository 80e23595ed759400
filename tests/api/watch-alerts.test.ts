/**
 * Watch alerts in the open page (空席通知, GET /api/watches/stream) against a real server on both
 * engines: a cancellation that frees the start a diner watches holds it for the first watcher,
 * whose stream hears it with a link to the hold (booked there from a plain form), and never the
 * stream of a diner watching something else, nor a guest's whose address is unconfirmed. The data is the test's
 * own: a store open around the clock whose only table seats the party, booked and cancelled
 * through the API at a start within the hour of the server's clock (SUGU_CLOCK: 20:07 tomorrow,
 * ahead of the database's own now(), whatever the hour the suite runs at).
 * Two instances on one PostgreSQL: a watch made and a booking cancelled through instance A reach
 * the diner's page open on instance B, and the hold's mail (through a real SMTP server) goes once,
 * its link opening the hold by its own token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openAppDb, startApp, until, type App, type Engine } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { signUp, type SignedUp } from '../helpers/auth';
import { SseStream } from './live-sse';
import type { WatchAlert } from '../../src/lib/contract/watches';
import { startWithFixture } from './booking-fixtures';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';

// Tomorrow at 20:07 Tokyo (later than any wall-clock hour today); the watched start is 20:30, within its hour.
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 20 * 60 + 7);
const START = toTokyoIso(tokyoInstant(day, 20 * 60 + 30));
/** The fixture's tiny store has one table, for up to 2: a party of 2 fills it. */
const PARTY = 2;

/** Tables free for the party at `start`, as the server's availability tells at its hour. */
async function freeTables(app: App, storeId: number, start: string): Promise<number | undefined> {
  const res = await app.fetch(`/api/stores/${storeId}/availability?party=${PARTY}&date=${day}`);
  expect(res.status).toBe(200);
  const { slots } = (await res.json()) as { slots: { start: string; free_tables: number }[] };
  return slots.find((s) => Date.parse(s.start) === Date.parse(start))?.free_tables;
}

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`watch alerts in the page [${engine}]`, () => {
    let app: App;
    let cleanup: () => Promise<void>;
    let target: { storeId: number; party: number; start: string };
    let other: number;
    beforeAll(async () => {
      const started = await startWithFixture(engine, { SUGU_CLOCK: clockAt.toISOString() });
      ({ app, cleanup } = started);
      target = { storeId: started.fx.tinyStoreId, party: PARTY, start: START };
      other = started.fx.storeId;
    });
    afterAll(() => cleanup?.());

    it("a freed start is held for its first watcher, whose stream hears it with the hold's page (no other diner's, nor an unconfirmed guest's), booked there from a plain form", async () => {
      const watcher = await signUp(app);
      const bystander = await signUp(app);
      const cookie = (who: SignedUp) => who.jar.header();
      const watch = (body: object, headers: Record<string, string>) => app.fetch('/api/watches', { method: 'POST', json: body, headers });

      // Free at the server's hour, then the single table taken at that start: the store is full for the party.
      expect(await freeTables(app, target.storeId, target.start)).toBe(1);
      const held = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: {
          store_id: target.storeId,
          start: target.start,
          party_size: target.party,
          name: '先客 太郎',
          name_kana: 'センキャク タロウ',
          phone: '090-2222-3333',
          email: 'first@example.jp',
        },
      });
      expect(held.status).toBe(201);
      const booking = (await held.json()) as { id: number; edit_token: string };
      expect(await freeTables(app, target.storeId, target.start)).toBe(0);

      // The start just taken: the booking page without JavaScript answers 409 and offers to watch it.
      const raced = await app.fetch(`/store/${target.storeId}/booking-without`, {
        method: 'POST',
        headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          intent: 'book',
          start: target.start,
          party_size: String(target.party),
          name: '後客 花子',
          name_kana: 'アトキャク ハナコ',
          phone: '090-4444-5555',
          email: 'late@example.jp',
        }),
      });
      expect(raced.status).toBe(409);
      const offer = (await raced.text()).match(/href="([^"]*)" data-testid="watch-taken"/)?.[1]?.replaceAll('&amp;', '&');
      expect(Object.fromEntries(new URL(offer!, app.url).searchParams)).toEqual({
        store_id: String(target.storeId),
        party: String(target.party),
        from: target.start,
      });

      expect((await watch({ store_id: target.storeId, party_size: target.party }, { cookie: cookie(watcher) })).status).toBe(201);
      expect((await watch({ store_id: other, party_size: target.party }, { cookie: cookie(bystander) })).status).toBe(201);
      const guestRes = await watch({ store_id: target.storeId, party_size: target.party, email: 'watching-guest@example.jp' }, {});
      expect(guestRes.status).toBe(201);
      const guestToken = ((await guestRes.json()) as { device_token: string }).device_token;
      const guestCookie = guestRes.headers
        .getSetCookie()
        .find((c) => c.startsWith('sugu_watch='))!
        .split(';')[0]!;
      expect(guestCookie).toBe(`sugu_watch=${guestToken}`);

      const streams = {
        watcher: await SseStream.open(app, '/api/watches/stream', { cookie: cookie(watcher) }),
        bystander: await SseStream.open(app, '/api/watches/stream', { cookie: cookie(bystander) }),
        guest: await SseStream.open(app, '/api/watches/stream', { cookie: guestCookie }),
      };
      try {
        expect((await app.fetch('/api/watches/stream')).status).toBe(401);
        const cancelled = await app.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
        expect(cancelled.status).toBe(200);

        const alertOf = (s: SseStream) => s.until(() => s.events.find((e) => e.event === 'watch'), 'watch alert');
        const mine = JSON.parse((await alertOf(streams.watcher)).data) as WatchAlert;
        // The earliest start freed, held for the watcher alone: the held stay also blocked the starts just before it.
        expect(mine).toMatchObject({ store_id: target.storeId, party_size: target.party });
        expect(Date.parse(mine.start)).toBeLessThanOrEqual(Date.parse(target.start));
        expect(Date.parse(mine.start)).toBeGreaterThan(clockAt.getTime());
        expect(mine.href).toBe(`/watches/hold/${mine.hold_id}`);
        expect(Date.parse(mine.deadline!)).toBeGreaterThan(clockAt.getTime());
        // Held: the listing shows no table for the party at that start.
        expect(await freeTables(app, target.storeId, mine.start)).toBe(0);
        // The alerts are written to the streams at once: by now another's would be there. The
        // guest's address is unconfirmed, so nothing is held for it; the bystander watches another store.
        expect(streams.bystander.events.filter((e) => e.event === 'watch')).toEqual([]);
        expect(streams.guest.events.filter((e) => e.event === 'watch')).toEqual([]);
        expect(streams.watcher.events.filter((e) => e.event === 'watch')).toHaveLength(1);

        // Another diner's hold is not found; the watcher's page shows the deadline and books it from a plain form.
        expect((await app.fetch(`/api/watch-holds/${mine.hold_id}`, { cookie: cookie(bystander) })).status).toBe(404);
        expect((await app.fetch(mine.href, { cookie: cookie(bystander) })).status).toBe(404);
        const page = await app.fetch(mine.href, { cookie: cookie(watcher) });
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain(`datetime="${mine.deadline}"`);
        expect(html).toContain('data-testid="hold-claim"');
        const claimed = await app.fetch(mine.href, {
          method: 'POST',
          cookie: cookie(watcher),
          headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({}),
        });
        expect(claimed.status).toBe(303);
        expect(claimed.headers.get('location')).toMatch(new RegExp(`^/store/${target.storeId}/booking/edit/\\d+$`));
        const after = await app.fetch(`/api/watch-holds/${mine.hold_id}`, { cookie: cookie(watcher) });
        expect(await after.json()).toMatchObject({ state: 'claimed', booking_id: expect.any(Number) });
        // A second claim is too late.
        const again = await app.fetch(`/api/watch-holds/${mine.hold_id}/claim`, { method: 'POST', cookie: cookie(watcher), json: {} });
        expect(again.status).toBe(409);
        expect(((await again.json()) as { error: { code: string } }).error.code).toBe('hold_state');
      } finally {
        for (const s of Object.values(streams)) s.close();
      }
    });

    it('the watch form works without JavaScript: prefilled, refusals keep the choice, made, listed on the device and cancelled', async () => {
      const form = (fields: Record<string, string>, cookie = '') =>
        app.fetch('/watches', {
          method: 'POST',
          redirect: 'manual',
          cookie,
          headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields),
        });
      const page = await app.fetch(`/watches?store_id=${other}&party=${target.party}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`name="store_id" value="${other}"`);

      const refused = await form({ store_id: String(other), party_size: String(target.party), minutes: '60', email: 'not-an-address' });
      expect(refused.status).toBe(400);
      const again = await refused.text();
      expect(again).toMatch(/data-field="email"/);
      expect(again).toContain(`name="store_id" value="${other}"`);

      const made = await form({
        store_id: String(other),
        party_size: String(target.party),
        minutes: '60',
        email: 'form-guest@example.jp',
        next: `/store/${other}`,
      });
      expect(made.status).toBe(303);
      expect(made.headers.get('location')).toBe(`/store/${other}`);
      const device = made.headers
        .getSetCookie()
        .find((c) => c.startsWith('sugu_watch='))!
        .split(';')[0]!;
      const listed = await (await app.fetch('/booking-list', { cookie: device })).text();
      const id = listed.match(/data-testid="watch-item" data-watch-id="(\d+)"/)?.[1];
      expect(id).toBeDefined();
      // Someone else's device cannot cancel it; this one can, and comes back to the list.
      expect((await form({ intent: 'cancel', id: id!, next: '/booking-list' }, 'sugu_watch=someone-else')).status).toBe(404);
      const cancelled = await form({ intent: 'cancel', id: id!, next: '/booking-list' }, device);
      expect(cancelled.status).toBe(303);
      expect(cancelled.headers.get('location')).toBe('/booking-list');
      expect(await (await app.fetch('/booking-list', { cookie: device })).text()).not.toContain('data-testid="watch-item"');
    });

    it("a signed-in diner's watches are listed on the account page and cancelled from there", async () => {
      const diner = await signUp(app);
      const made = await app.fetch('/api/watches', {
        method: 'POST',
        json: { store_id: other, party_size: target.party },
        headers: { cookie: diner.jar.header() },
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: number };
      const account = () => app.fetch('/account-info', { cookie: diner.jar.header() }).then((r) => r.text());
      expect(await account()).toContain(`data-testid="watch-item" data-watch-id="${id}"`);
      const cancelled = await app.fetch('/watches', {
        method: 'POST',
        redirect: 'manual',
        cookie: diner.jar.header(),
        headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'cancel', id: String(id), next: '/account-info' }),
      });
      expect(cancelled.status).toBe(303);
      expect(cancelled.headers.get('location')).toBe('/account-info');
      expect(await account()).not.toContain('data-testid="watch-item"');
    });
  });
}

describe('watch alerts across two instances on one PostgreSQL', () => {
  let smtp: TestSmtp;
  let a: App;
  let b: App;
  let cleanup: () => Promise<void>;
  let storeId: number;
  beforeAll(async () => {
    smtp = await startSmtp();
    const env = { SMTP_URL: smtp.url, SUGU_CLOCK: clockAt.toISOString() };
    const started = await startWithFixture('postgres', env);
    ({ app: a, cleanup } = started);
    storeId = started.fx.tinyStoreId;
    b = await startApp('postgres', env, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.stop();
    await cleanup?.();
    await smtp?.close();
  });

  it("a cancellation through A reaches the diner's page open on B with a link, and the mail goes once", async () => {
    const [party, start] = [PARTY, START];
    const held = await a.fetch('/api/guest-bookings', {
      method: 'POST',
      json: {
        store_id: storeId,
        start,
        party_size: party,
        name: '先客 太郎',
        name_kana: 'センキャク タロウ',
        phone: '090-2222-3333',
        email: 'first-ab@example.jp',
      },
    });
    expect(held.status).toBe(201);
    const booking = (await held.json()) as { id: number; edit_token: string };
    expect(await freeTables(a, storeId, start)).toBe(0);

    // The watch is made through A; the diner's page (its stream) is served by B.
    // Verified through the link its test SMTP server received, so its watch is confirmed and mailed.
    const watcher = await signUp(a, {}, { inbox: (to) => smtp.received.filter((m) => m.to === to).map((m) => m.parsed.text ?? '') });
    expect(
      (
        await a.fetch('/api/watches', {
          method: 'POST',
          json: { store_id: storeId, party_size: party },
          headers: { cookie: watcher.jar.header(), 'accept-language': 'ja' },
        })
      ).status,
    ).toBe(201);
    const onB = await SseStream.open(b, '/api/watches/stream', { cookie: watcher.jar.header() });
    let holdId = 0;
    try {
      const cancelled = await a.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
      expect(cancelled.status).toBe(200);
      const alert = JSON.parse((await onB.until(() => onB.events.find((e) => e.event === 'watch'), 'watch alert on B')).data) as WatchAlert;
      expect(alert).toMatchObject({ store_id: storeId, party_size: party, href: `/watches/hold/${alert.hold_id}` });
      holdId = alert.hold_id!;
    } finally {
      onB.close();
    }

    // Both instances found the freed start; the database let one of them hold it and mail it, and it was sent.
    const h = await openAppDb(a);
    try {
      const outbox = () =>
        h.db.execute<{ sent: boolean }>(sql`select sent_at is not null as sent from mail_outbox where to_address = ${watcher.email} and kind = 'watch_hold'`);
      await until(async () => (await outbox()).some((r) => r.sent), 'watch mail sent', 2400);
      expect((await outbox()).map((r) => r.sent)).toEqual([true]);
    } finally {
      await h.close();
    }
    const received = smtp.received.filter((m) => m.to === watcher.email && !m.parsed.text?.includes('/auth/verify?token='));
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toContain('確保しました');
    const token = received[0]!.parsed.text!.match(new RegExp(`/watches/hold/${holdId}\\?token=([\\w-]+)`))![1]!;
    // The mailed link opens the hold on any device, by its token alone.
    expect((await b.fetch(`/api/watch-holds/${holdId}`, { headers: { 'x-hold-token': token } })).status).toBe(200);
  });
});
