/**
 * The 順番待ち's call and its claim, on both engines, with the server's clock set (SUGU_CLOCK): the
 * store calls a party; one that left an address is mailed in its language with the deadline and a
 * link that opens its page; within the window the diner confirms (JSON or the plain page) and gets
 * a booking starting now, made by the booking service, the entry SEATED with it; past the deadline
 * the claim is 409 `queue_state`; two claims at once, or a claim and the staff seating the party,
 * move the entry once. The ledger's queue panel calls, seats and marks through plain forms, and
 * another company's entry is 404 there. The four-table store takes a queue always (its setting) and
 * has eight tables more, so every claim here finds a table; each race is run three times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { mailedTo, until, type App } from '../helpers/app';
import { rawRequest, type RawResponse } from '../helpers/raw';
import { SseStream } from './live-sse';
import type { Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, STORE_HOST, type StaffFixture } from './store-fixtures';
import { queueEntries, stores, storeTables } from '../../src/server/db/schema';
import { hashToken, newToken } from '../../src/server/sessions';
import { STORE_SESSION_COOKIE } from '../../src/server/sessions';
import { queueClaimedJsonSchema, queueEntryJsonSchema, queueJoinedJsonSchema, QUEUE_CLAIM_MINUTES_DEFAULT } from '../../src/lib/contract/queue';
import { bookingPaths } from '../../src/lib/contract/paths';
import { formatTime } from '../../src/lib/datetime';
import { watchTranslator } from '../../src/server/watches/translate';
import { eveningClock } from '../helpers/clock';

type Json = Record<string, any>;
const MIN = 60_000;
// 19:00 in Tokyo on the next business day, whatever the hour the suite runs.
const clockAt = eveningClock();
const at = (minutes: number) => new Date(clockAt + minutes * MIN);

/** Cookie `name` as a response sets it, or undefined. */
function setCookie(res: RawResponse, name: string): string | undefined {
  const line = (res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`順番待ち: the call and its claim [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let tokenA: string;
    /** A call whose window closed before the server started, and another company's waiting party. */
    const written = {} as Record<'overdue' | 'foreign', { id: number; token: string }>;

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: new Date(clockAt).toISOString() }, async (db, f) => {
        await db.update(stores).set({ queueMode: 'always' }).where(eq(stores.id, f.storeId));
        await db
          .insert(storeTables)
          .values([5, 6, 7, 8, 9, 10, 11, 12].map((n) => ({ storeId: f.storeId, label: `T${n}`, kind: 'table' as const, minParty: 1, maxParty: 4 })));
        for (const [key, storeId, state] of [
          ['overdue', f.storeId, 'called'],
          ['foreign', f.tinyStoreId, 'waiting'],
        ] as const) {
          const token = newToken();
          const called = state === 'called' ? { calledAt: at(-10), claimDeadline: at(-10 + QUEUE_CLAIM_MINUTES_DEFAULT) } : {};
          const [e] = await db
            .insert(queueEntries)
            .values({ storeId, guestTokenHash: hashToken(token), partySize: 2, name: `既存 ${key}`, phone: '09044446666', state, joinedAt: at(-30), ...called })
            .returning({ id: queueEntries.id });
          written[key] = { id: e!.id, token };
        }
      }));
      tokenA = (await staffLogin(app, fx.staffA)).token;
    });
    afterAll(() => cleanup?.());

    let n = 0;
    /** A guest joins the four-table store's queue (with an e-mail address, when given). */
    const join = async (more: Json = {}, language = 'ja') => {
      n++;
      const res = await app.fetch(`/api/stores/${fx.storeId}/queue`, {
        method: 'POST',
        headers: { 'accept-language': language },
        json: { party_size: 2, name: `確定 ${n}`, phone: `090-5555-${String(1000 + n)}`, ...more },
      });
      expect(res.status).toBe(201);
      const joined = z.parse(queueJoinedJsonSchema, await res.json());
      return { id: joined.entry.id, token: joined.token! };
    };
    const call = async (id: number) => {
      const res = await app.fetch(`/api/store/queue/${id}/call`, { method: 'POST', headers: bearer(tokenA) });
      expect(res.status).toBe(200);
      return (await res.json()) as Json;
    };
    const claim = (id: number, headers: Record<string, string>, cookie?: string) =>
      app.fetch(`/api/queue/${id}/claim`, { method: 'POST', headers: { 'accept-language': 'ja', ...headers }, cookie });
    const diner = async (id: number, token: string) =>
      z.parse(queueEntryJsonSchema, await (await app.fetch(`/api/queue/${id}`, { headers: { 'x-queue-token': token } })).json());
    const errorOf = async (res: Response) => [res.status, ((await res.json()) as Json).error.code];

    it('a called guest is mailed in its language with the deadline and its own link; confirming books a table from now and seats the entry', async () => {
      const email = `queue-${engine}-${newToken().slice(0, 6)}@example.jp`;
      const e = await join({ email }, 'en');
      const called = await call(e.id);

      const mail = await until(async () => mailedTo(app, email).find((m) => m.subject.includes('Your table is ready')), 'the call’s mail');
      const deadline = formatTime(new Date(called.claim_deadline), watchTranslator('en'));
      expect(mail.subject).toContain(deadline);
      expect(mail.text).toContain(`by ${deadline}`);
      const link = /(https?:\/\/\S+\/queue\/(\d+)\?token=(\S+))/.exec(mail.text);
      expect(link?.[2]).toBe(String(e.id));
      // The mail's token is not the join's, and opens the entry on its own.
      const mailToken = decodeURIComponent(link![3]!);
      expect(mailToken).not.toBe(e.token);
      expect((await diner(e.id, mailToken)).state).toBe('called');

      const res = await claim(e.id, { 'x-queue-token': e.token });
      expect(res.status).toBe(200);
      const claimed = z.parse(queueClaimedJsonSchema, await res.json());
      expect(claimed.entry).toMatchObject({ state: 'seated', booking_id: claimed.booking.id });
      expect(claimed.entry.seated_at).not.toBeNull();
      // From the server's minute now (its clock runs on from SUGU_CLOCK), for the party.
      const start = Date.parse(claimed.booking.start);
      expect(start % MIN).toBe(0);
      expect(start).toBeGreaterThanOrEqual(clockAt);
      expect(start).toBeLessThanOrEqual(clockAt + 30 * MIN);
      expect(Date.parse(claimed.booking.end) - start).toBe(120 * MIN);
      expect([claimed.booking.party_size, claimed.booking.status, claimed.booking.store_id]).toEqual([2, 'confirmed', fx.storeId]);
      expect(claimed.edit_token).not.toBeNull();
      expect(claimed.booking_url).toBe(bookingPaths.guestEdit(fx.storeId, claimed.booking.id, claimed.edit_token!));
      const booking = await app.fetch(`/api/guest-bookings/${claimed.booking.id}`, { headers: { 'x-booking-token': claimed.edit_token! } });
      expect([booking.status, ((await booking.json()) as Json).code]).toEqual([200, claimed.booking.code]);
      // The booking's own confirmation goes to the same address.
      await until(async () => mailedTo(app, email).some((m) => m.text.includes(claimed.booking.code)), 'the booking’s confirmation');

      // Once seated, nothing more: claiming again, leaving.
      expect(await errorOf(await claim(e.id, { 'x-queue-token': e.token }))).toEqual([409, 'queue_state']);
      expect(await errorOf(await app.fetch(`/api/queue/${e.id}`, { method: 'DELETE', headers: { 'x-queue-token': e.token } }))).toEqual([409, 'queue_state']);
      // Someone else's token: not found.
      expect(await errorOf(await claim(e.id, { 'x-queue-token': newToken() }))).toEqual([404, 'not_found']);
    });

    it('a signed-in diner confirms with the account: the booking is the account’s, and a party not called cannot claim', async () => {
      const user = fx.users[0]!;
      const joined = await app.fetch(`/api/stores/${fx.storeId}/queue`, {
        method: 'POST',
        cookie: user.cookie,
        json: { party_size: 3, name: '会員 太郎', phone: '090-5555-9001' },
      });
      expect(joined.status).toBe(201);
      const id = z.parse(queueJoinedJsonSchema, await joined.json()).entry.id;
      expect(await errorOf(await claim(id, {}, user.cookie))).toEqual([409, 'queue_state']);
      await call(id);
      const res = await claim(id, {}, user.cookie);
      expect(res.status).toBe(200);
      const claimed = z.parse(queueClaimedJsonSchema, await res.json());
      expect([claimed.edit_token, claimed.booking_url, claimed.booking.party_size]).toEqual([null, bookingPaths.edit(fx.storeId, claimed.booking.id), 3]);
      const mine = await app.fetch(`/api/bookings/${claimed.booking.id}`, { cookie: user.cookie });
      expect(mine.status).toBe(200);
      // Another account's claim on it: not found.
      expect(await errorOf(await claim(id, {}, fx.users[1]!.cookie))).toEqual([404, 'not_found']);
    });

    it('past its deadline the claim is 409 queue_state and the call has expired', async () => {
      expect(await errorOf(await claim(written.overdue.id, { 'x-queue-token': written.overdue.token }))).toEqual([409, 'queue_state']);
      const e = await diner(written.overdue.id, written.overdue.token);
      expect([e.state, e.booking_id]).toEqual(['expired', null]);
    });

    it.each([1, 2, 3])('two claims of one call at once: exactly one books, the other is 409 queue_state (round %i)', async () => {
      const e = await join();
      await call(e.id);
      const answers = await Promise.all([claim(e.id, { 'x-queue-token': e.token }), claim(e.id, { 'x-queue-token': e.token })]);
      const results = await Promise.all(
        answers.map(async (r) => (r.status === 200 ? z.parse(queueClaimedJsonSchema, await r.json()) : ((await r.json()) as Json).error.code)),
      );
      const won = results.filter((r) => typeof r !== 'string');
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.filter((r) => typeof r === 'string')).toEqual(['queue_state']);
      expect((await diner(e.id, e.token)).booking_id).toBe(won[0]!.booking.id);
    });

    it.each([1, 2, 3])('a claim and the staff seating the same party at once: exactly one moves it (round %i)', async () => {
      const e = await join();
      await call(e.id);
      const [mine, staff] = await Promise.all([
        claim(e.id, { 'x-queue-token': e.token }),
        app.fetch(`/api/store/queue/${e.id}/seat`, { method: 'POST', headers: bearer(tokenA) }),
      ]);
      expect([mine.status, staff.status].sort()).toEqual([200, 409]);
      const loser = mine.status === 409 ? mine : staff;
      expect(((await loser.json()) as Json).error.code).toBe('queue_state');
      const seen = await diner(e.id, e.token);
      expect(seen.state).toBe('seated');
      // A booking exactly when the diner's claim won.
      expect(seen.booking_id !== null).toBe(mine.status === 200);
    });

    it('the door tablets’ store stream tells each change of the queue: a party joining, called, leaving', async () => {
      const stream = await SseStream.open(app, `/api/store/stream?store_id=${fx.storeId}`, bearer(tokenA));
      try {
        const told = () => stream.events.filter((e) => e.event === 'queue').length;
        // Open before anything happens: nothing is told yet.
        expect(told()).toBe(0);
        const e = await join();
        await stream.until(() => told() === 1, 'the party joining');
        await call(e.id);
        await stream.until(() => told() === 2, 'the call');
        expect((await app.fetch(`/api/queue/${e.id}`, { method: 'DELETE', headers: { 'x-queue-token': e.token } })).status).toBe(200);
        await stream.until(() => told() === 3, 'the party leaving');
        expect(JSON.parse(stream.events.find((x) => x.event === 'queue')!.data)).toEqual({ store_id: fx.storeId });
      } finally {
        stream.close();
      }
    });

    it('without JavaScript: 「席に向かいます（確定）」 on the page posts the claim and goes to the booking’s page', async () => {
      const e = await join();
      await call(e.id);
      const cookie = `sugu_queue_page=${e.token}`;
      const page = await app.fetch(`/queue/${e.id}`, { cookie, headers: { 'accept-language': 'ja' } });
      const html = await page.text();
      expect(html).toContain('席に向かいます（確定）');
      expect(html).toContain('name="intent" value="claim"');
      const posted = await app.fetch(`/queue/${e.id}`, {
        method: 'POST',
        cookie,
        body: new URLSearchParams({ intent: 'claim' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
      });
      expect(posted.status).toBe(303);
      const seen = await diner(e.id, e.token);
      expect(seen.state).toBe('seated');
      expect(posted.headers.get('location')).toBe(bookingPaths.guestEdit(fx.storeId, seen.booking_id!));
      // The guest's booking page opens with the cookie the claim set.
      const set = posted.headers.getSetCookie().find((l) => l.startsWith('sugu_guest_page='));
      expect(set).toBeDefined();
      const booking = await app.fetch(bookingPaths.guestEdit(fx.storeId, seen.booking_id!), { cookie: set!.split(';')[0] });
      expect(booking.status).toBe(200);
    });

    it('the ledger’s queue panel: 呼び出す, then 着席 or 来店なし, by plain forms; another company’s entry is 404', async () => {
      const host = new URL(STORE_HOST).host;
      const store = (path: string, options: { form?: Record<string, string>; cookie?: string } = {}) => {
        const headers: Record<string, string> = { host, 'accept-language': 'ja', ...(options.cookie ? { cookie: options.cookie } : {}) };
        let body: string | undefined;
        if (options.form) {
          body = new URLSearchParams(options.form).toString();
          Object.assign(headers, {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
            origin: STORE_HOST,
          });
        }
        return rawRequest(app, { method: options.form ? 'POST' : 'GET', path, headers, body });
      };
      const signed = await store('/store-signin', { form: { email: fx.staffA.email, password: fx.staffA.password } });
      expect(signed.status).toBe(303);
      const jar = `${STORE_SESSION_COOKIE}=${setCookie(signed, STORE_SESSION_COOKIE)}`;
      const [a, b] = [await join(), await join()];
      const row = (html: string, id: number) => new RegExp(`data-queue-entry="${id}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? '';

      const ledger = (await store('/list-booking-manage', { cookie: jar })).body;
      expect(ledger).toContain('順番待ち');
      expect(row(ledger, a.id)).toMatch(/確定 \d+[\s\S]*2名[\s\S]*\d+分待ち[\s\S]*待機中[\s\S]*name="move" value="call"[\s\S]*呼び出す/);
      expect(row(ledger, a.id)).not.toContain('来店なし');

      const post = (id: number, move: string) => store('/list-booking-manage', { form: { action: 'queue', entry: String(id), move }, cookie: jar });
      const called = await post(a.id, 'call');
      expect([called.status, called.headers.location]).toEqual([303, '/list-booking-manage']);
      const flash = setCookie(called, 'flash');
      const after = (await store('/list-booking-manage', { cookie: `${jar}; flash=${flash}` })).body;
      expect(after).toMatch(/確定 \d+ 様を呼び出しました/);
      const deadline = (await diner(a.id, a.token)).claim_deadline!;
      expect(row(after, a.id)).toContain('呼び出し中');
      expect(row(after, a.id)).toContain(`${formatTime(new Date(deadline), watchTranslator('ja'))}まで`);
      expect(row(after, a.id)).toMatch(/value="seat"[\s\S]*着席[\s\S]*value="no-show"[\s\S]*来店なし/);

      expect((await post(a.id, 'seat')).status).toBe(303);
      expect((await diner(a.id, a.token)).state).toBe('seated');
      await post(b.id, 'call');
      expect((await post(b.id, 'no-show')).status).toBe(303);
      expect((await diner(b.id, b.token)).state).toBe('no_show');
      // A move its state does not allow: the ledger says so, nothing moves.
      const again = await post(b.id, 'call');
      expect(again.status).toBe(303);
      expect((await store('/list-booking-manage', { cookie: `${jar}; flash=${setCookie(again, 'flash')}` })).body).toContain(
        'いまの状態ではその操作ができません',
      );
      const gone = (await store('/list-booking-manage', { cookie: jar })).body;
      expect(gone).not.toContain(`data-queue-entry="${a.id}"`);

      // Another company's party: 404, and it is still waiting.
      const foreign = await post(written.foreign.id, 'call');
      expect(foreign.status).toBe(404);
      expect((await diner(written.foreign.id, written.foreign.token)).state).toBe('waiting');
    });
  });
}
