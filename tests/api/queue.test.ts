/**
 * The 順番待ち from the phone, on both engines, with the server's clock set (SUGU_CLOCK) on a quarter
 * hour a few hours from now. The one-table bar is full for the next 90 minutes (a booking written
 * before the server starts), so its queue is open; the four-table store has free starts, so its
 * queue opens only once the store says "always". A guest joins and gets a token (its hash stored),
 * sees 「n組待ち」's number and the estimated wait as a range from the tables, the booking and the
 * parties ahead; someone else's token or account gets 404; leaving is one call and leaving again
 * is 409 `queue_state`; one diner waits in at most three queues; the plain pages do the same
 * without JavaScript; every change is in the audit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { openAppDb, type App } from '../helpers/app';
import type { Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, takeTinyTable, type StaffFixture } from './store-fixtures';
import { storeHours, stores, storeTables } from '../../src/server/db/schema';
import { hashToken } from '../../src/server/sessions';
import { queueEntryJsonSchema, queueJoinedJsonSchema, QUEUES_PER_DINER } from '../../src/lib/contract/queue';
import { waitRange } from '../../src/server/queue/estimate';
import { eveningClock } from '../helpers/clock';

type Json = Record<string, any>;
const MIN = 60_000;
// 19:00 in Tokyo on the next business day, whatever the hour the suite runs.
const clockAt = eveningClock();
const at = (minutes: number) => new Date(clockAt + minutes * MIN);
const guest = (n: number, more: Json = {}) => ({ party_size: 2, name: `順番 花子${n}`, phone: `090-7777-${String(1000 + n)}`, ...more });

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`順番待ち [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let staffToken: string;
    /** Stores that always take a queue, for the per-diner limit. */
    const always: number[] = [];

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: new Date(clockAt).toISOString() }, async (db, f) => {
        // The bar's one table is taken from 30 minutes ago until 90 minutes on: nothing within the hour.
        await takeTinyTable(db, f, at(-30), at(90), 'QU');
        const [{ id: _id, createdAt: _c, ...copy }] = (await db.select().from(stores).where(eq(stores.id, f.storeId))) as [typeof stores.$inferSelect];
        for (const n of [1, 2, 3]) {
          const [s] = await db
            .insert(stores)
            .values({ ...copy, name: `いつでも順番待ち${n}`, queueMode: 'always' })
            .returning({ id: stores.id });
          await db.insert(storeTables).values({ storeId: s!.id, label: 'A1', kind: 'table', minParty: 1, maxParty: 4 });
          await db.insert(storeHours).values([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ storeId: s!.id, weekday, opensMin: 0, closesMin: 1440 })));
          always.push(s!.id);
        }
      }));
      staffToken = (await staffLogin(app, fx.staffA)).token;
    });
    afterAll(() => cleanup?.());

    const join = (storeId: number, body: Json, init: { cookie?: string; headers?: Record<string, string> } = {}) =>
      app.fetch(`/api/stores/${storeId}/queue`, { method: 'POST', json: body, headers: { 'accept-language': 'ja', ...init.headers }, cookie: init.cookie });
    const read = (id: number, token?: string, cookie?: string) =>
      app.fetch(`/api/queue/${id}`, { headers: token === undefined ? {} : { 'x-queue-token': token }, cookie });
    const leave = (id: number, token?: string, cookie?: string) =>
      app.fetch(`/api/queue/${id}`, {
        method: 'DELETE',
        headers: { 'accept-language': 'ja', ...(token === undefined ? {} : { 'x-queue-token': token }) },
        cookie,
      });
    const errorOf = async (res: Response) => [res.status, ((await res.json()) as Json).error.code];

    it('a guest joins the full bar and sees the parties ahead and the wait as a range; the next sees one more ahead and a longer wait', async () => {
      const first = await join(fx.tinyStoreId, guest(1));
      expect(first.status).toBe(201);
      const a = z.parse(queueJoinedJsonSchema, await first.json());
      expect(a.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(a.entry).toMatchObject({ store_id: fx.tinyStoreId, party_size: 2, state: 'waiting', ahead: 0, called_at: null, ended_at: null });
      // The one table frees 90 minutes on (the server's clock has run on a little since it started).
      const waitFrom = (joinedAt: string, minutes: number) => waitRange((at(minutes).getTime() - Date.parse(joinedAt)) / MIN);
      expect(a.entry.estimate).toEqual(waitFrom(a.entry.joined_at, 90));
      expect(a.entry.estimate!.max_minutes).toBeGreaterThan(a.entry.estimate!.min_minutes);
      // The cookie carries the token on the entry's page and API, HttpOnly.
      const cookies = first.headers.getSetCookie().filter((c) => c.startsWith('sugu_queue'));
      expect(cookies.map((c) => c.split(';')[0]!.split('=')[0]).sort()).toEqual(['sugu_queue', 'sugu_queue_page']);
      expect(cookies.every((c) => /HttpOnly/i.test(c))).toBe(true);

      const second = z.parse(queueJoinedJsonSchema, await (await join(fx.tinyStoreId, guest(2))).json());
      expect(second.entry.ahead).toBe(1);
      // The party ahead takes the table at +90 for its 120-minute stay.
      expect(second.entry.estimate).toEqual(waitFrom(second.entry.joined_at, 210));
      expect(second.entry.estimate!.min_minutes).toBeGreaterThan(a.entry.estimate!.max_minutes);
      // The token is stored only as its hash.
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql`select guest_token_hash, state from queue_entries where id = ${a.entry.id}`;
          expect(rows[0]).toEqual({ guest_token_hash: hashToken(a.token!), state: 'waiting' });
        } finally {
          await h.close();
        }
      }

      // Read with the token: the same entry; another token, none, or another entry's: not found.
      expect(z.parse(queueEntryJsonSchema, await (await read(a.entry.id, a.token!)).json()).id).toBe(a.entry.id);
      for (const token of ['', 'wrong', second.token!]) expect(await errorOf(await read(a.entry.id, token))).toEqual([404, 'not_found']);
      expect(await errorOf(await read(a.entry.id))).toEqual([404, 'not_found']);
      expect(await errorOf(await read(a.entry.id, undefined, fx.users[1]!.cookie))).toEqual([404, 'not_found']);
      expect(await errorOf(await leave(a.entry.id, second.token!))).toEqual([404, 'not_found']);

      // Leaving: canceled with its time; the one behind moves up; leaving again is 409.
      const left = await leave(a.entry.id, a.token!);
      expect(left.status).toBe(200);
      const gone = z.parse(queueEntryJsonSchema, await left.json());
      expect(gone.state).toBe('canceled');
      expect(gone.ended_at).not.toBeNull();
      expect(gone.estimate).toBeNull();
      const again = await leave(a.entry.id, a.token!);
      expect(again.status).toBe(409);
      const refused = ((await again.json()) as Json).error;
      expect(refused.code).toBe('queue_state');
      expect(refused.message).toContain('いまの状態ではその操作ができません');
      const moved = z.parse(queueEntryJsonSchema, await (await read(second.entry.id, second.token!)).json());
      expect([moved.ahead, moved.estimate]).toEqual([0, a.entry.estimate]);
      expect((await leave(second.entry.id, second.token!)).status).toBe(200);

      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql`select action, before, after from staff_audit where target_id = ${a.entry.id} and action like 'queue_%' order by id`;
          expect(rows.map((r) => [r.action, r.before?.state ?? null, r.after.state])).toEqual([
            ['queue_join', null, 'waiting'],
            ['queue_cancel', 'waiting', 'canceled'],
          ]);
        } finally {
          await h.close();
        }
      }
    });

    it('is closed while a start within the hour is free, until the store takes a queue always', async () => {
      const closed = await join(fx.storeId, guest(3));
      expect(await errorOf(closed)).toEqual([409, 'queue_closed']);
      const put = await app.fetch('/api/store/arrivals', {
        method: 'PUT',
        headers: bearer(staffToken),
        json: { store_id: fx.storeId, grace_minutes: 15, auto_release: false, queue_mode: 'always' },
      });
      expect(put.status).toBe(200);
      const open = await join(fx.storeId, guest(3));
      expect(open.status).toBe(201);
      const entry = z.parse(queueJoinedJsonSchema, await open.json());
      // A table is free now: the wait is the shortest range.
      expect(entry.entry.estimate).toEqual(waitRange(0));
      expect((await leave(entry.entry.id, entry.token!)).status).toBe(200);
      await app.fetch('/api/store/arrivals', {
        method: 'PUT',
        headers: bearer(staffToken),
        json: { store_id: fx.storeId, grace_minutes: 15, auto_release: false, queue_mode: 'when_full' },
      });
      expect(await errorOf(await join(fx.storeId, guest(3)))).toEqual([409, 'queue_closed']);
      expect(await errorOf(await join(999_999, guest(3)))).toEqual([404, 'not_found']);
    });

    it('refuses a party without a phone number or an e-mail address, and a party size out of range, naming the field', async () => {
      for (const [body, field] of [
        [{ party_size: 2, name: '連絡 なし' }, 'phone'],
        [guest(4, { party_size: 0 }), 'party_size'],
        [guest(4, { name: ' ' }), 'name'],
        [guest(4, { email: 'not-an-address' }), 'email'],
      ] as const) {
        const res = await join(fx.tinyStoreId, body);
        const answer = (await res.json()) as Json;
        expect([body, res.status, Object.keys(answer.error.fields)]).toEqual([body, 400, [field]]);
      }
      const res = await join(fx.tinyStoreId, { party_size: 2, name: '連絡 なし' });
      expect(((await res.json()) as Json).error.fields.phone).toBe('電話番号かメールアドレスのどちらかを入力してください');
    });

    it(`a signed-in diner waits in at most ${QUEUES_PER_DINER} queues at once; leaving one lets them join another`, async () => {
      const cookie = fx.users[0]!.cookie;
      const ids: number[] = [];
      for (const storeId of always) {
        const res = await join(storeId, { party_size: 2, name: '予約 太郎1', email: fx.users[0]!.email }, { cookie });
        expect(res.status).toBe(201);
        const joined = z.parse(queueJoinedJsonSchema, await res.json());
        // An account's entry is the account's: no token.
        expect(joined.token).toBeNull();
        ids.push(joined.entry.id);
      }
      const over = await join(fx.tinyStoreId, { party_size: 2, name: '予約 太郎1', phone: '090-1234-0000' }, { cookie });
      expect(await errorOf(over)).toEqual([409, 'too_many_queues']);
      // The account reads its own; the other account cannot.
      expect((await read(ids[0]!, undefined, cookie)).status).toBe(200);
      expect(await errorOf(await read(ids[0]!, undefined, fx.users[1]!.cookie))).toEqual([404, 'not_found']);
      expect((await leave(ids[0]!, undefined, cookie)).status).toBe(200);
      const now = await join(fx.tinyStoreId, { party_size: 2, name: '予約 太郎1', phone: '090-1234-0000' }, { cookie });
      expect(now.status).toBe(201);
      for (const id of [...ids.slice(1), z.parse(queueJoinedJsonSchema, await now.json()).entry.id])
        expect((await leave(id, undefined, cookie)).status).toBe(200);
    });

    it(`a guest on two phones with one number cannot pass ${QUEUES_PER_DINER} queues by joining from both at once`, async () => {
      for (let round = 0; round < 3; round++) {
        const phone = { phone: `080-3333-${String(4000 + round)}` };
        const held: { id: number; token: string }[] = [];
        // Each join without a cookie is another device; the number is the same.
        for (const storeId of always.slice(0, QUEUES_PER_DINER - 1)) {
          const res = await join(storeId, guest(20 + round, phone));
          expect(res.status).toBe(201);
          const j = z.parse(queueJoinedJsonSchema, await res.json());
          held.push({ id: j.entry.id, token: j.token! });
        }
        const raced = await Promise.all([join(always[QUEUES_PER_DINER - 1]!, guest(30 + round, phone)), join(fx.tinyStoreId, guest(40 + round, phone))]);
        expect(raced.map((r) => r.status).sort()).toEqual([201, 409]);
        for (const r of raced) {
          if (r.status === 409) expect(((await r.json()) as Json).error.code).toBe('too_many_queues');
          else {
            const j = z.parse(queueJoinedJsonSchema, await r.json());
            held.push({ id: j.entry.id, token: j.token! });
          }
        }
        for (const h of held) expect((await leave(h.id, h.token)).status).toBe(200);
      }
    });

    it('a guest joins and leaves with the plain pages, without JavaScript; the store page offers the form only while the queue is open', async () => {
      const ja = { 'accept-language': 'ja' };
      const storePage = await (await app.fetch(`/store/${fx.tinyStoreId}`, { headers: ja })).text();
      expect(storePage).toContain('順番待ちに並ぶ');
      expect(await (await app.fetch(`/store/${fx.storeId}`, { headers: ja })).text()).not.toContain('順番待ちに並ぶ');

      const post = (path: string, form: Record<string, string>, cookie?: string) =>
        app.fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
          body: String(new URLSearchParams(form)),
          cookie,
        });
      // Refused: the form again, with what was typed and the field's error.
      const bad = await post(`/store/${fx.tinyStoreId}/queue`, { party_size: '3', name: '画面 花子', phone: '', email: '' });
      expect(bad.status).toBe(400);
      const badPage = await bad.text();
      expect(badPage).toContain('電話番号かメールアドレスのどちらかを入力してください');
      expect(badPage).toContain('value="画面 花子"');
      expect(badPage).toMatch(/<option value="3" selected/);

      const ok = await post(`/store/${fx.tinyStoreId}/queue`, { party_size: '2', name: '画面 花子', phone: '', email: 'screen@example.jp' });
      expect(ok.status).toBe(303);
      const page = ok.headers.get('location')!;
      expect(page).toMatch(/^\/queue\/\d+$/);
      const cookie = ok.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .filter((c) => c.startsWith('sugu_queue_page='))
        .join('; ');
      expect(cookie).not.toBe('');
      const shown = await (await app.fetch(page, { cookie, headers: ja })).text();
      expect(shown).toContain('次はあなたの番です');
      expect(shown).toMatch(/待ち時間の目安：約\d+〜\d+分/);
      // The page's script is inside the document, not after </html>.
      expect(shown.trimEnd()).toMatch(/<\/html>$/);
      // Without the cookie the page is not found.
      expect((await app.fetch(page, { headers: ja })).status).toBe(404);

      const left = await post(page, { intent: 'leave' }, cookie);
      expect(left.status).toBe(303);
      const after = await (await app.fetch(page, { cookie, headers: ja })).text();
      expect(after).toContain('この順番待ちは取り消されています。');
      expect(after).not.toContain('順番待ちをやめる');
      const twice = await post(page, { intent: 'leave' }, cookie);
      expect(twice.status).toBe(409);
      expect(await twice.text()).toContain('いまの状態ではその操作ができません');
    });
  });
}
