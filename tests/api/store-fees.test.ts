/**
 * The fees the one fee rule makes due, as the store follows them up, on both engines, with the
 * server's clock at 17:26 tomorrow (SUGU_CLOCK) and the test store charging ¥2,000 per person
 * within 2 hours: a diner's late cancellation and a no-show marked by the store are listed as due
 * with the fee module's amounts (a free cancellation and a store's cancellation are not); staff
 * waive, collect outside Sugu and undo, each in the audit with before and after; the role matrix
 * (guest 401, diner 403, another store 404); bad values 4xx; and the same through the store host's
 * pages (plain forms, post/redirect/get), which say that Sugu processes no card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { openAppDb, type App } from '../helpers/app';
import { rawRequest, type RawResponse } from '../helpers/raw';
import type { Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, STORE_HOST, type StaffFixture } from './store-fixtures';
import { bookings, stores, storeTables } from '../../src/server/db/schema';
import { STORE_SESSION_COOKIE } from '../../src/server/sessions';
import { cancellationFee, feeOwed } from '../../src/lib/contract/fee';
import { feeStateSchema, storeFeeDetailSchema, storeFeeJsonSchema, storeFeeListSchema } from '../../src/lib/contract/staff';
import { addTokyoDays, tokyoInstant, toTokyoIso } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';
import { NOTE_MAX } from '../../src/lib/contract/limits';

type Json = Record<string, any>;
const day = addTokyoDays(businessDate(new Date()), 1);
const clockAt = tokyoInstant(day, 17 * 60 + 26);
const at = (hh: number, mm = 0) => toTokyoIso(tokyoInstant(day, hh * 60 + mm));
const month = day.slice(0, 7);
const policy = { freeHours: 2, feeYen: 2000 };
const NO_SHOW_CODE = 'SG-NOSHW1';
let guests = 0;
const guest = () => ({ name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-5678-${String(1000 + ++guests)}`, email: `fees-${guests}@example.jp` });

/** Cookie `name` as a response sets it, or undefined. */
const setCookie = (res: RawResponse, name: string) =>
  (res.headers['set-cookie'] ?? [])
    .find((l) => l.startsWith(`${name}=`))
    ?.slice(name.length + 1)
    .split(';')[0];

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`store fees [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let tokenA: string;
    let tokenB: string;
    let noShowId: number;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: clockAt.toISOString() }, async (db, f) => {
        await db.update(stores).set({ cancelFreeHours: policy.freeHours, cancelFeeYen: policy.feeYen }).where(eq(stores.id, f.storeId));
        // A party of 3 due at 16:00, before the server's clock starts: the store can mark it a no-show.
        const [table] = await db.select({ id: storeTables.id }).from(storeTables).where(eq(storeTables.storeId, f.storeId)).limit(1);
        await db.insert(bookings).values({
          code: NO_SHOW_CODE,
          storeId: f.storeId,
          tableId: table!.id,
          partySize: 3,
          startsAt: tokyoInstant(day, 16 * 60),
          endsAt: tokyoInstant(day, 17 * 60),
          guestName: '来ない 太郎',
          guestNameKana: 'コナイ タロウ',
          guestPhone: '090-0000-1111',
          guestEmail: 'noshow@example.jp',
        });
      }));
      tokenA = (await staffLogin(app, fx.staffA)).token;
      tokenB = (await staffLogin(app, fx.staffB)).token;
      const list = (await (await app.fetch(`/api/store/bookings?date=${day}`, { headers: bearer(tokenA) })).json()) as Json;
      noShowId = list.items.find((b: Json) => b.code === NO_SHOW_CODE).id;
    });
    afterAll(() => cleanup?.());

    const fees = (token: string, query = '') => app.fetch(`/api/store/fees${query}`, { headers: bearer(token) });
    const setState = (token: string, id: number, body: Json) => app.fetch(`/api/store/fees/${id}`, { method: 'PATCH', headers: bearer(token), json: body });
    const bookAndCancel = async (start: string, party: number) => {
      const res = await app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest(), store_id: fx.storeId, start, party_size: party } });
      expect(res.status).toBe(201);
      const made = (await res.json()) as Json;
      const cancelled = await app.fetch(`/api/guest-bookings/${made.id}`, { method: 'DELETE', headers: { 'x-booking-token': made.edit_token } });
      expect(cancelled.status).toBe(200);
      return { id: made.id as number, fee: ((await cancelled.json()) as Json).cancellation_fee };
    };
    const itemOf = (list: Json, id: number) => list.items.find((i: Json) => i.booking.id === id);

    it('lists a late cancellation as due with the fee module’s amount, and neither a free one nor the store’s', async () => {
      const late = await bookAndCancel(at(18), 3);
      const free = await bookAndCancel(at(21), 2);
      const res = await fees(tokenA, `?month=${month}`);
      expect(res.status).toBe(200);
      const list = z.parse(storeFeeListSchema, await res.json());
      const item = itemOf(list, late.id);
      const expected = cancellationFee(policy, new Date(at(18)), 3, clockAt);
      expect(expected).toMatchObject({ applies: 'due', total: 6000 });
      expect(item.fee).toMatchObject({ reason: 'late_cancellation', per_person: 2000, total: 6000, state: 'due', note: '', state_updated_at: null });
      // What the diner was told on cancelling is what the store is owed.
      expect(late.fee).toMatchObject({ applies: 'due', total: item.fee.total });
      expect(item.booking).toMatchObject({ status: 'cancelled', party_size: 3, contact: { name: '山田 花子' } });
      expect(itemOf(list, free.id)).toBeUndefined();

      const made = (await (
        await app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest(), store_id: fx.storeId, start: at(18, 30), party_size: 2 } })
      ).json()) as Json;
      const byStore = await app.fetch(`/api/store/bookings/${made.id}`, {
        method: 'PATCH',
        headers: bearer(tokenA),
        json: { mark: 'cancelled', reason: '設備の故障のため' },
      });
      expect(byStore.status).toBe(200);
      expect(itemOf(z.parse(storeFeeListSchema, await (await fees(tokenA, `?month=${month}`)).json()), made.id)).toBeUndefined();
    });

    it('lists a no-show marked by the store, owing the late-cancellation fee for the party booked', async () => {
      const marked = await app.fetch(`/api/store/bookings/${noShowId}`, { method: 'PATCH', headers: bearer(tokenA), json: { mark: 'no_show' } });
      expect(marked.status).toBe(200);
      const list = z.parse(storeFeeListSchema, await (await fees(tokenA, `?month=${month}&store_id=${fx.storeId}`)).json());
      const item = itemOf(list, noShowId);
      const owed = feeOwed(policy, {
        start: tokyoInstant(day, 16 * 60),
        party: 3,
        status: 'confirmed',
        cancelledAt: null,
        cancelledByStore: false,
        attendance: 'no_show',
      });
      expect(owed).toEqual({ reason: 'no_show', perPerson: 2000, total: 6000 });
      expect(item.fee).toMatchObject({ reason: 'no_show', per_person: owed!.perPerson, total: owed!.total, state: 'due' });
      expect(item.booking).toMatchObject({ code: NO_SHOW_CODE, attendance: 'no_show' });
      expect(list.totals.due).toBe(list.items.reduce((sum, i) => sum + i.fee.total, 0));
      expect(list.totals.due).toBeGreaterThanOrEqual(12000);
    });

    it('waives, collects outside Sugu and undoes, with the history and the audit’s before and after', async () => {
      const { id } = await bookAndCancel(at(18, 45), 2);
      let res = await setState(tokenA, id, { state: 'waived', note: '常連様のため' });
      expect(res.status).toBe(200);
      expect(z.parse(storeFeeJsonSchema, await res.json())).toMatchObject({ state: 'waived', note: '常連様のため', total: 4000 });
      let list = z.parse(storeFeeListSchema, await (await fees(tokenA, `?month=${month}&state=waived`)).json());
      expect(list.items.map((i) => i.booking.id)).toEqual([id]);
      expect(list.totals.waived).toBe(4000);

      res = await setState(tokenA, id, { state: 'collected', note: '店頭で現金にて受領' });
      expect(z.parse(storeFeeJsonSchema, await res.json())).toMatchObject({ state: 'collected', note: '店頭で現金にて受領' });
      list = z.parse(storeFeeListSchema, await (await fees(tokenA, `?month=${month}&state=collected`)).json());
      expect(list.items.map((i) => i.booking.id)).toEqual([id]);
      expect(list.totals).toMatchObject({ waived: 0, collected: 4000 });

      res = await setState(tokenA, id, { state: 'due' });
      expect(z.parse(storeFeeJsonSchema, await res.json())).toMatchObject({ state: 'due', note: '' });
      list = z.parse(storeFeeListSchema, await (await fees(tokenA, `?month=${month}&state=due`)).json());
      expect(itemOf(list, id)?.fee.state).toBe('due');

      const detail = z.parse(storeFeeDetailSchema, await (await app.fetch(`/api/store/fees/${id}`, { headers: bearer(tokenA) })).json());
      expect(detail.history.map((h) => [h.event, h.actor, h.note])).toEqual([
        ['cancelled', null, ''],
        ['waived', fx.staffA.email, '常連様のため'],
        ['collected', fx.staffA.email, '店頭で現金にて受領'],
        ['due', fx.staffA.email, ''],
      ]);

      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql<
            { before: Json; after: Json; detail: Json }[]
          >`select before, after, detail from staff_audit where target_id = ${id} and action = 'fee_state_set' order by id`;
          expect(rows.map((r) => [r.before, r.after])).toEqual([
            [
              { state: 'due', note: '' },
              { state: 'waived', note: '常連様のため' },
            ],
            [
              { state: 'waived', note: '常連様のため' },
              { state: 'collected', note: '店頭で現金にて受領' },
            ],
            [
              { state: 'collected', note: '店頭で現金にて受領' },
              { state: 'due', note: '' },
            ],
          ]);
          expect(rows[0]!.detail).toEqual({ reason: 'late_cancellation', total: 4000 });
        } finally {
          await h.close();
        }
      }
    });

    it('answers a guest 401, a diner 403 and another store’s staff 404', async () => {
      const { id } = await bookAndCancel(at(19), 1);
      expect((await app.fetch('/api/store/fees')).status).toBe(401);
      expect((await app.fetch(`/api/store/fees/${id}`, { method: 'PATCH', json: { state: 'waived' } })).status).toBe(401);
      const diner = fx.users[0]!.cookie;
      expect((await app.fetch('/api/store/fees', { cookie: diner })).status).toBe(403);
      expect((await app.fetch(`/api/store/fees/${id}`, { method: 'PATCH', cookie: diner, json: { state: 'waived' } })).status).toBe(403);
      expect((await fees(tokenB, `?store_id=${fx.storeId}`)).status).toBe(404);
      expect((await app.fetch(`/api/store/fees/${id}`, { headers: bearer(tokenB) })).status).toBe(404);
      expect((await setState(tokenB, id, { state: 'waived' })).status).toBe(404);
      // B's own list is reachable and does not hold A's fee.
      const own = z.parse(storeFeeListSchema, await (await fees(tokenB, `?month=${month}`)).json());
      expect(own.store_id).toBe(fx.staffB.storeId);
      expect(itemOf(own, id)).toBeUndefined();
      const still = z.parse(storeFeeDetailSchema, await (await app.fetch(`/api/store/fees/${id}`, { headers: bearer(tokenA) })).json());
      expect(still.fee?.state).toBe('due');
    });

    it('refuses bad values with the field named, and a booking that owes nothing with 409', async () => {
      const { id } = await bookAndCancel(at(19, 15), 1);
      let res = await setState(tokenA, id, { state: 'paid' });
      expect(res.status).toBe(400);
      expect(Object.keys(((await res.json()) as Json).error.fields)).toEqual(['state']);
      res = await setState(tokenA, id, { state: 'waived', note: 'x'.repeat(NOTE_MAX + 1) });
      expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, ['note']]);
      expect(z.safeParse(feeStateSchema, { state: 'waived', note: 'x'.repeat(NOTE_MAX + 1) }).success).toBe(false);
      res = await fees(tokenA, '?month=2026-13');
      expect([res.status, Object.keys(((await res.json()) as Json).error.fields)]).toEqual([400, ['month']]);
      expect((await fees(tokenA, '?state=paid')).status).toBe(400);
      expect((await setState(tokenA, 2147483648, { state: 'waived' })).status).toBe(404);

      const free = await bookAndCancel(at(22), 2);
      res = await setState(tokenA, free.id, { state: 'collected' });
      expect([res.status, ((await res.json()) as Json).error.code]).toEqual([409, 'no_fee']);
      const none = z.parse(storeFeeDetailSchema, await (await app.fetch(`/api/store/fees/${free.id}`, { headers: bearer(tokenA) })).json());
      expect(none.fee).toBeNull();
    });

    it('shows the fees on the store host’s pages, says no card is processed, and records a state through the plain form', async () => {
      const host = new URL(STORE_HOST).host;
      const store = (path: string, options: { form?: Record<string, string>; cookie?: string } = {}) => {
        const headers: Record<string, string> = { host, 'accept-language': 'ja', ...(options.cookie ? { cookie: options.cookie } : {}) };
        const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
        if (body)
          Object.assign(headers, {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
            origin: STORE_HOST,
          });
        return rawRequest(app, { method: body ? 'POST' : 'GET', path, headers, body });
      };
      const signIn = async (staff: typeof fx.staffA) =>
        `${STORE_SESSION_COOKIE}=${setCookie(await store('/store-signin', { form: { email: staff.email, password: staff.password } }), STORE_SESSION_COOKIE)}`;
      const jar = await signIn(fx.staffA);
      const { id } = await bookAndCancel(at(18, 15), 2);

      const page = await store(`/list-payment-manage?month=${month}&store=${fx.storeId}`, { cookie: jar });
      expect(page.status).toBe(200);
      expect(page.body).toContain('Suguではカード決済・オンライン決済を行っていません');
      expect(page.body).toContain(`data-booking="${id}"`);
      expect(page.body).toContain('¥4,000');
      const bad = await store('/list-payment-manage?month=2026-13', { cookie: jar });
      expect(bad.body).toContain('指定された条件を読み取れなかったため');

      const detail = await store(`/payment-detail/${id}`, { cookie: jar });
      expect(detail.status).toBe(200);
      expect(detail.body).toContain('直前のキャンセル');
      expect(detail.body).toContain('未対応');
      const posted = await store(`/payment-detail/${id}`, { cookie: jar, form: { state: 'collected', note: 'レジで受領' } });
      expect(posted).toMatchObject({ status: 303, headers: { location: `/payment-detail/${id}` } });
      const after = await store(`/payment-detail/${id}`, { cookie: `${jar}; flash=${setCookie(posted, 'flash')}` });
      expect(after.body).toContain('キャンセル料をSugu外で受領済みにしました');
      expect(after.body).toContain('レジで受領');
      const api = z.parse(storeFeeDetailSchema, await (await app.fetch(`/api/store/fees/${id}`, { headers: bearer(tokenA) })).json());
      expect(api.fee).toMatchObject({ state: 'collected', note: 'レジで受領' });
      // A refused post keeps what was typed and names the field, in the staff's language.
      const refused = await store(`/payment-detail/${id}`, { cookie: jar, form: { state: 'paid', note: '書きかけのメモ' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('書きかけのメモ');

      for (const path of [`/payment/${id}`, `/card-payment/${id}`]) {
        const res = await store(path, { cookie: jar });
        expect([path, res.status]).toEqual([path, 200]);
        expect(res.body).toContain('Suguではお支払いの受け付けもカード決済も行っていません');
        expect(res.body).toContain(`href="/payment-detail/${id}"`);
      }
      const jarB = await signIn(fx.staffB);
      for (const path of [`/payment-detail/${id}`, `/payment/${id}`, `/card-payment/${id}`]) {
        expect([path, (await store(path, { cookie: jarB })).status]).toEqual([path, 404]);
      }
      expect((await store(`/payment-detail/${id}`, { cookie: jarB, form: { state: 'waived' } })).status).toBe(404);
      expect(z.parse(storeFeeDetailSchema, await (await app.fetch(`/api/store/fees/${id}`, { headers: bearer(tokenA) })).json()).fee?.state).toBe('collected');
    });
  });
}
