/**
 * Watch alerts in the open page (空席通知, GET /api/watches/stream) against a real server on both
 * engines: a cancellation that frees the start a diner watches reaches that diner's stream (a
 * signed-in diner's, and the guest device's that made its watch) with a link that books exactly
 * that start, and never the stream of a diner watching something else. The data is the test's
 * own: a store open around the clock, and a party only one of its tables seats, booked and
 * cancelled through the API at the first free start within the next hour (any hour of the day).
 * Two instances on one PostgreSQL: a watch made and a booking cancelled through instance A reach
 * the diner's page open on instance B, and the mail (through a real SMTP server) goes once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openAppDb, startApp, until, type App, type Engine } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { signUp, type SignedUp } from '../helpers/auth';
import { openDb } from '../../src/server/db/client';
import type { Db } from '../../src/server/db/types';
import { SseStream } from './live-sse';
import type { WatchAlert } from '../../src/lib/contract/watches';

/** All-day stores with a party size that exactly one of their tables diners may book seats (enough of them that, at any hour, one is free within the hour despite the demo bookings). */
async function singleTableParties(db: Db): Promise<{ storeId: number; party: number }[]> {
  const rows = await db.execute<{ store_id: number; party: number }>(sql`
    with allday as (
      select store_id from store_hours group by store_id
      having count(*) = 7 and bool_and(opens_min = 0 and closes_min = 1440)
    ), sizes as (
      select t.store_id, p as party, count(*) as n from store_tables t join allday a using (store_id),
        generate_series(1, 20) p where t.online and t.min_party <= p and p <= t.max_party group by t.store_id, p
    )
    select store_id, max(party) as party from sizes where n = 1 group by store_id order by store_id limit 20`);
  return rows.map((r) => ({ storeId: Number(r.store_id), party: Number(r.party) }));
}

async function choices(app: App): Promise<{ storeId: number; party: number }[]> {
  if (app.engine === 'postgres') {
    const h = await openAppDb(app);
    try {
      return await singleTableParties(h.db);
    } finally {
      await h.close();
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-watch-tpl-'));
  fs.cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  const h = await openDb({ dataDir: dir });
  try {
    return await singleTableParties(h.db);
  } finally {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The first start within the next hour (and a few minutes ahead) the store has free for the party. */
async function startWithinTheHour(app: App, storeId: number, party: number): Promise<string | undefined> {
  const now = Date.now();
  const starts: string[] = [];
  for (const res of [await app.fetch(`/api/stores/${storeId}/availability?party=${party}`)]) {
    const body = (await res.json()) as { date: string; slots: { start: string; free_tables: number }[] };
    starts.push(...body.slots.filter((s) => s.free_tables > 0).map((s) => s.start));
    // Near the end of a business day the hour ahead runs into the next one.
    const next = await app.fetch(`/api/stores/${storeId}/availability?party=${party}&date=${nextDate(body.date)}`);
    if (next.ok) starts.push(...((await next.json()) as typeof body).slots.filter((s) => s.free_tables > 0).map((s) => s.start));
  }
  return starts.find((s) => Date.parse(s) > now + 5 * 60_000 && Date.parse(s) < now + 50 * 60_000);
}

const nextDate = (date: string) => new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`watch alerts in the page [${engine}]`, () => {
    let app: App;
    let target: { storeId: number; party: number; start: string };
    let other: number;
    beforeAll(async () => {
      app = await startApp(engine);
      const found = await choices(app);
      for (const c of found) {
        const start = await startWithinTheHour(app, c.storeId, c.party);
        if (start) {
          target = { ...c, start };
          break;
        }
      }
      if (!target) throw new Error('no all-day store with a single-table party free within the hour');
      other = found.find((c) => c.storeId !== target.storeId)!.storeId;
    });
    afterAll(() => app?.stop());

    it("a freed start reaches its watcher's stream and the guest device's, with a link booking that start, and no other diner's", async () => {
      const watcher = await signUp(app);
      const bystander = await signUp(app);
      const cookie = (who: SignedUp) => who.jar.header();
      const watch = (body: object, headers: Record<string, string>) => app.fetch('/api/watches', { method: 'POST', json: body, headers });

      // The single table taken at that start: the store is full for the party.
      const held = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { store_id: target.storeId, start: target.start, party_size: target.party, name: '先客 太郎', name_kana: 'センキャク タロウ', phone: '090-2222-3333', email: 'first@example.jp' },
      });
      expect(held.status).toBe(201);
      const booking = (await held.json()) as { id: number; edit_token: string };

      // The start just taken: the booking page without JavaScript answers 409 and offers to watch it.
      const raced = await app.fetch(`/store/${target.storeId}/booking-without`, {
        method: 'POST',
        headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'book', start: target.start, party_size: String(target.party), name: '後客 花子', name_kana: 'アトキャク ハナコ', phone: '090-4444-5555', email: 'late@example.jp' }),
      });
      expect(raced.status).toBe(409);
      const offer = (await raced.text()).match(/href="([^"]*)" data-testid="watch-taken"/)?.[1]?.replaceAll('&amp;', '&');
      expect(Object.fromEntries(new URL(offer!, app.url).searchParams)).toEqual({ store_id: String(target.storeId), party: String(target.party), from: target.start });

      expect((await watch({ store_id: target.storeId, party_size: target.party }, { cookie: cookie(watcher) })).status).toBe(201);
      expect((await watch({ store_id: other, party_size: target.party }, { cookie: cookie(bystander) })).status).toBe(201);
      const guestRes = await watch({ store_id: target.storeId, party_size: target.party, email: 'watching-guest@example.jp' }, {});
      expect(guestRes.status).toBe(201);
      const guestToken = ((await guestRes.json()) as { device_token: string }).device_token;
      const guestCookie = guestRes.headers.getSetCookie().find((c) => c.startsWith('sugu_watch='))!.split(';')[0]!;
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
        // The earliest start freed: the held stay also blocked the starts just before it.
        expect(mine).toMatchObject({ store_id: target.storeId, party_size: target.party });
        expect(Date.parse(mine.start)).toBeLessThanOrEqual(Date.parse(target.start));
        expect(Date.parse(mine.start)).toBeGreaterThan(Date.now() - 60_000);
        const link = new URL(mine.href, app.url);
        expect(link.pathname).toBe(`/store/${target.storeId}/booking`);
        expect(Object.fromEntries(link.searchParams)).toEqual({ party: String(target.party), start: mine.start });
        const theirs = JSON.parse((await alertOf(streams.guest)).data) as WatchAlert;
        expect(new URL(theirs.href, app.url).pathname).toBe(`/store/${target.storeId}/booking-without`);
        // The alerts are written to every matching stream at once: by now the bystander's would be there.
        expect(streams.bystander.events.filter((e) => e.event === 'watch')).toEqual([]);
        expect(streams.watcher.events.filter((e) => e.event === 'watch')).toHaveLength(1);

        // The link opens the booking form with that start chosen.
        const page = await app.fetch(`${link.pathname}${link.search}`, { cookie: cookie(watcher) });
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(mine.start);
      } finally {
        for (const s of Object.values(streams)) s.close();
      }
    });

    it('the watch form works without JavaScript: prefilled, refusals keep the choice, made, listed on the device and cancelled', async () => {
      const form = (fields: Record<string, string>, cookie = '') =>
        app.fetch('/watches', { method: 'POST', redirect: 'manual', cookie, headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
      const page = await app.fetch(`/watches?store_id=${other}&party=${target.party}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`name="store_id" value="${other}"`);

      const refused = await form({ store_id: String(other), party_size: String(target.party), minutes: '60', email: 'not-an-address' });
      expect(refused.status).toBe(400);
      const again = await refused.text();
      expect(again).toMatch(/data-field="email"/);
      expect(again).toContain(`name="store_id" value="${other}"`);

      const made = await form({ store_id: String(other), party_size: String(target.party), minutes: '60', email: 'form-guest@example.jp', next: `/store/${other}` });
      expect(made.status).toBe(303);
      expect(made.headers.get('location')).toBe(`/store/${other}`);
      const device = made.headers.getSetCookie().find((c) => c.startsWith('sugu_watch='))!.split(';')[0]!;
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
      const made = await app.fetch('/api/watches', { method: 'POST', json: { store_id: other, party_size: target.party }, headers: { cookie: diner.jar.header() } });
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
  beforeAll(async () => {
    smtp = await startSmtp();
    a = await startApp('postgres', { SMTP_URL: smtp.url });
    b = await startApp('postgres', { SMTP_URL: smtp.url }, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await smtp?.close();
  });

  it("a cancellation through A reaches the diner's page open on B with a link, and the mail goes once", async () => {
    let target: { storeId: number; party: number; start: string } | undefined;
    for (const c of await choices(a)) {
      const start = await startWithinTheHour(a, c.storeId, c.party);
      if (start) {
        target = { ...c, start };
        break;
      }
    }
    expect(target, 'an all-day store with a single-table party free within the hour').toBeDefined();
    const { storeId, party, start } = target!;
    const held = await a.fetch('/api/guest-bookings', {
      method: 'POST',
      json: { store_id: storeId, start, party_size: party, name: '先客 太郎', name_kana: 'センキャク タロウ', phone: '090-2222-3333', email: 'first-ab@example.jp' },
    });
    expect(held.status).toBe(201);
    const booking = (await held.json()) as { id: number; edit_token: string };

    // The watch is made through A; the diner's page (its stream) is served by B.
    const watcher = await signUp(a);
    expect((await a.fetch('/api/watches', { method: 'POST', json: { store_id: storeId, party_size: party }, headers: { cookie: watcher.jar.header(), 'accept-language': 'ja' } })).status).toBe(201);
    const onB = await SseStream.open(b, '/api/watches/stream', { cookie: watcher.jar.header() });
    try {
      const cancelled = await a.fetch(`/api/guest-bookings/${booking.id}`, { method: 'DELETE', headers: { 'x-booking-token': booking.edit_token } });
      expect(cancelled.status).toBe(200);
      const alert = JSON.parse((await onB.until(() => onB.events.find((e) => e.event === 'watch'), 'watch alert on B')).data) as WatchAlert;
      expect(alert).toMatchObject({ store_id: storeId, party_size: party });
      const link = new URL(alert.href, b.url);
      expect(link.pathname).toBe(`/store/${storeId}/booking`);
      expect(Object.fromEntries(link.searchParams)).toEqual({ party: String(party), start: alert.start });
    } finally {
      onB.close();
    }

    // Both instances found the freed start; the database let one of them mail it, and it was sent.
    const h = await openAppDb(a);
    try {
      const outbox = () => h.db.execute<{ sent: boolean }>(sql`select sent_at is not null as sent from mail_outbox where to_address = ${watcher.email} and kind = 'watch_freed'`);
      await until(async () => (await outbox()).some((r) => r.sent), 'watch mail sent', 2400);
      expect((await outbox()).map((r) => r.sent)).toEqual([true]);
    } finally {
      await h.close();
    }
    const received = smtp.received.filter((m) => m.to === watcher.email);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toContain('空席が出ました');
    expect(received[0]!.parsed.text).toContain(`/store/${storeId}/booking?party=${party}`);
  });
});
