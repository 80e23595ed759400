/**
 * An `Idempotency-Key` is remembered IDEMPOTENCY_KEY_HOURS (24 h), on both engines, with the
 * server's controlled clock (SUGU_CLOCK): within the day the key's other body is 422; a server whose
 * clock is a day and a minute later sweeps the kept answers away, and the same key is then a new
 * request that books. (On PGlite the later server runs on the same data after the first stopped;
 * on PostgreSQL it is a second instance on the same database.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDb, startApp, type App } from '../helpers/app';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';
import { IDEMPOTENCY_KEY_HOURS } from '../../src/lib/contract/limits';

type Json = Record<string, any>;
const MINUTE = 60_000;

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`Idempotency-Key expiry [${engine}]`, () => {
    const at = new Date(Date.now() - (Date.now() % MINUTE));
    const later = new Date(at.getTime() + IDEMPOTENCY_KEY_HOURS * 60 * MINUTE + MINUTE);
    let app: App;
    let next: App | undefined;
    let fx: Fixture;
    let dataDir: string | undefined;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup, dataDir } = await startWithFixture(engine, { SUGU_CLOCK: at.toISOString() }));
    });
    afterAll(async () => {
      await next?.stop();
      await cleanup?.();
    });

    const book = (server: App, body: Json, key: string) =>
      server.fetch('/api/bookings', { method: 'POST', json: body, cookie: fx.users[0]!.cookie, headers: { 'accept-language': 'ja', 'idempotency-key': key } });

    it('a key reused after 24 hours is a new request, and the expired answers are swept', async () => {
      const key = crypto.randomUUID();
      const a = { store_id: fx.storeId, start: tokyoStart(3, 12), party_size: 2 };
      const b = { store_id: fx.storeId, start: tokyoStart(3, 16), party_size: 2 };
      const first = await book(app, a, key);
      expect(first.status).toBe(201);
      const booked = (await first.json()) as Json;
      // Within the day the key is taken: another body is refused and books nothing.
      const reused = await book(app, b, key);
      expect(reused.status).toBe(422);
      expect(((await reused.json()) as Json).error.code).toBe('idempotency_key_reused');

      let kept = 0;
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          kept = (await h.sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys`)[0]!.n;
        } finally {
          await h.close();
        }
        expect(kept).toBeGreaterThan(0);
        next = await startApp('postgres', { SUGU_CLOCK: later.toISOString() }, { databaseUrl: app.databaseUrl });
      } else {
        await app.stop();
        next = await startApp('pglite', { SUGU_CLOCK: later.toISOString(), DATA_DIR: dataDir! });
      }
      // The later server's background work forgets what is older than a day.
      await next.waitForOutput(/"msg":"idempotency_keys_swept","count":[1-9]/, 'the sweep of expired keys');
      if (engine === 'postgres') {
        const h = await openAppDb(next);
        try {
          expect((await h.sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys`)[0]!.n).toBe(0);
        } finally {
          await h.close();
        }
      }

      // The same key is now a new request: the other body books, and is itself replayed.
      const fresh = await book(next, b, key);
      expect(fresh.status).toBe(201);
      const made = (await fresh.json()) as Json;
      expect(made.id).not.toBe(booked.id);
      const again = await book(next, b, key);
      expect(again.status).toBe(201);
      expect(((await again.json()) as Json).id).toBe(made.id);
      // The first booking is still there, once.
      const list = ((await (await next.fetch('/api/bookings', { cookie: fx.users[0]!.cookie })).json()) as Json).items as Json[];
      expect(list.filter((x) => x.id === booked.id)).toHaveLength(1);
      // A second server starts inside the test: on a busy machine that alone can take half a minute.
    }, 180_000);
  });
}
