/**
 * The 順番待ち's state machine through the store API, on both engines, with the server's clock set
 * (SUGU_CLOCK): staff call, seat and mark not come the parties of their own store's queue (another
 * company's staff get 404), each legal move of src/lib/contract/queue.ts is taken once and every
 * move from a state that does not allow it is 409 `queue_state`; a call sets the claim deadline from
 * the store's window, and a call left unconfirmed past its deadline expires by itself (the job every
 * instance runs), audited as nobody's tap. The full bar's queue is used; two calls were written
 * before the server started: one overdue, one with its window still open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { openAppDb, until, type App } from '../helpers/app';
import type { Fixture } from './booking-fixtures';
import { bearer, startWithStaff, staffLogin, takeTinyTable, type StaffFixture } from './store-fixtures';
import { queueEntries } from '../../src/server/db/schema';
import { hashToken, newToken } from '../../src/server/sessions';
import {
  QUEUE_CLAIM_MINUTES_DEFAULT,
  queueEntryJsonSchema,
  queueJoinedJsonSchema,
  storeQueueEntrySchema,
  storeQueueSchema,
} from '../../src/lib/contract/queue';
import { QUEUE_EXPIRY_ACTOR } from '../../src/server/queue/staff';
import { eveningClock } from '../helpers/clock';

type Json = Record<string, any>;
const MIN = 60_000;
// 19:00 in Tokyo on the next business day, whatever the hour the suite runs.
const clockAt = eveningClock();
const at = (minutes: number) => new Date(clockAt + minutes * MIN);

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`順番待ち, the store's side [${engine}]`, () => {
    let app: App;
    let fx: Fixture & StaffFixture;
    let cleanup: () => Promise<void>;
    let tokenA: string;
    let tokenB: string;
    const written = {} as Record<'overdue' | 'open', { id: number; token: string }>;

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithStaff(engine, { SUGU_CLOCK: new Date(clockAt).toISOString() }, async (db, f) => {
        await takeTinyTable(db, f, at(-30), at(90), 'QS');
        for (const [key, deadline] of [
          ['overdue', -5],
          ['open', 30],
        ] as const) {
          const token = newToken();
          const [e] = await db
            .insert(queueEntries)
            .values({
              storeId: f.tinyStoreId,
              guestTokenHash: hashToken(token),
              partySize: 2,
              name: `呼出 ${key}`,
              phone: '09044445555',
              state: 'called',
              joinedAt: at(-60),
              calledAt: at(deadline - QUEUE_CLAIM_MINUTES_DEFAULT),
              claimDeadline: at(deadline),
            })
            .returning({ id: queueEntries.id });
          written[key] = { id: e!.id, token };
        }
      }));
      tokenA = (await staffLogin(app, fx.staffA)).token;
      tokenB = (await staffLogin(app, fx.staffB)).token;
    });
    afterAll(() => cleanup?.());

    const join = async (n: number) => {
      const res = await app.fetch(`/api/stores/${fx.tinyStoreId}/queue`, {
        method: 'POST',
        json: { party_size: 2, name: `順番 ${n}`, phone: `090-6666-${String(1000 + n)}` },
      });
      expect(res.status).toBe(201);
      const joined = z.parse(queueJoinedJsonSchema, await res.json());
      return { id: joined.entry.id, token: joined.token! };
    };
    const act = (id: number, action: 'call' | 'seat' | 'no-show', token = tokenB) =>
      app.fetch(`/api/store/queue/${id}/${action}`, { method: 'POST', headers: bearer(token) });
    const diner = async (e: { id: number; token: string }) =>
      z.parse(queueEntryJsonSchema, await (await app.fetch(`/api/queue/${e.id}`, { headers: { 'x-queue-token': e.token } })).json());
    const stateOf = async (res: Response) =>
      res.status === 200 ? z.parse(storeQueueEntrySchema, await res.json()).state : [res.status, ((await res.json()) as Json).error.code];
    const conflict = [409, 'queue_state'];

    it('a call left unconfirmed past its deadline expires by itself, audited as nobody’s tap; one still in its window stays called', async () => {
      const gone = await until(async () => {
        const e = await diner(written.overdue);
        return e.state === 'expired' && e;
      }, 'the overdue call expired');
      expect(gone.ended_at).not.toBeNull();
      expect((await diner(written.open)).state).toBe('called');
      expect(await stateOf(await act(written.overdue.id, 'call'))).toEqual(conflict);
      expect(await stateOf(await act(written.overdue.id, 'seat'))).toEqual(conflict);
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows =
            await h.sql`select user_id, actor_email, before, after from staff_audit where target_id = ${written.overdue.id} and action = 'queue_expire'`;
          expect(rows.map((r) => [r.user_id, r.actor_email, r.before.state, r.after.state])).toEqual([[null, QUEUE_EXPIRY_ACTOR, 'called', 'expired']]);
        } finally {
          await h.close();
        }
      }
    });

    it('staff call, seat and mark not come; every move the state does not allow is 409, and another store’s staff get 404', async () => {
      const [a, b, c, d] = [await join(1), await join(2), await join(3), await join(4)];
      const list = z.parse(storeQueueSchema, await (await app.fetch(`/api/store/queue?store_id=${fx.tinyStoreId}`, { headers: bearer(tokenB) })).json());
      expect(list.claim_minutes).toBe(QUEUE_CLAIM_MINUTES_DEFAULT);
      // First come first: the call still in its window, then the four in the order they joined.
      expect(list.items.map((e) => e.id)).toEqual([written.open.id, a.id, b.id, c.id, d.id]);
      expect(list.items[1]).toMatchObject({ name: '順番 1', phone: '09066661001', state: 'waiting' });

      // Another company's staff: not found, and nothing moves.
      expect(await stateOf(await act(a.id, 'call', tokenA))).toEqual([404, 'not_found']);
      expect((await app.fetch(`/api/store/queue?store_id=${fx.tinyStoreId}`, { headers: bearer(tokenA) })).status).toBe(404);

      // waiting → called: the claim window starts; calling again is 409.
      const called = await act(a.id, 'call');
      expect(called.status).toBe(200);
      const aCalled = z.parse(storeQueueEntrySchema, await called.json());
      expect(aCalled.state).toBe('called');
      expect(Date.parse(aCalled.claim_deadline!) - Date.parse(aCalled.called_at!)).toBe(QUEUE_CLAIM_MINUTES_DEFAULT * MIN);
      expect(await stateOf(await act(a.id, 'call'))).toEqual(conflict);
      const seen = await diner(a);
      expect([seen.state, seen.claim_deadline, seen.ahead]).toEqual(['called', aCalled.claim_deadline, 0]);
      // called → seated; from seated nothing moves, the diner's leaving included.
      expect(await stateOf(await act(a.id, 'seat'))).toBe('seated');
      for (const action of ['call', 'seat', 'no-show'] as const) expect([action, await stateOf(await act(a.id, action))]).toEqual([action, conflict]);
      const leave = await app.fetch(`/api/queue/${a.id}`, { method: 'DELETE', headers: { 'x-queue-token': a.token } });
      expect([leave.status, ((await leave.json()) as Json).error.code]).toEqual(conflict);
      expect((await diner(a)).seated_at).not.toBeNull();

      // waiting → seated (seated at the door without a call), waiting → no_show.
      expect(await stateOf(await act(b.id, 'seat'))).toBe('seated');
      expect(await stateOf(await act(c.id, 'no-show'))).toBe('no_show');
      for (const action of ['call', 'seat', 'no-show'] as const) expect([action, await stateOf(await act(c.id, action))]).toEqual([action, conflict]);
      // called → no_show.
      expect(await stateOf(await act(d.id, 'call'))).toBe('called');
      expect(await stateOf(await act(d.id, 'no-show'))).toBe('no_show');
      expect((await diner(d)).ended_at).not.toBeNull();
      // called → canceled: the diner leaves while called.
      const left = await app.fetch(`/api/queue/${written.open.id}`, { method: 'DELETE', headers: { 'x-queue-token': written.open.token } });
      expect([left.status, z.parse(queueEntryJsonSchema, await left.json()).state]).toEqual([200, 'canceled']);
      expect(await stateOf(await act(written.open.id, 'seat'))).toEqual(conflict);

      const after = z.parse(storeQueueSchema, await (await app.fetch(`/api/store/queue?store_id=${fx.tinyStoreId}`, { headers: bearer(tokenB) })).json());
      expect(after.items).toEqual([]);
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const rows = await h.sql`select action, before, after from staff_audit where target_id = ${a.id} and action like 'queue_%' order by id`;
          expect(rows.map((r) => [r.action, r.before?.state ?? null, r.after.state])).toEqual([
            ['queue_join', null, 'waiting'],
            ['queue_call', 'waiting', 'called'],
            ['queue_seat', 'called', 'seated'],
          ]);
        } finally {
          await h.close();
        }
      }
    });
  });
}
