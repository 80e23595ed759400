/**
 * Rate-limit counters under concurrent use (src/server/http/rateLimit.ts): requests sharing keys
 * count them in one statement each and give them back, all at once, in every order, and none waits
 * on another in a circle (PostgreSQL would answer one with a deadlock, the diner with a 500).
 */
import { inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rateLimits } from '../../src/server/db/schema';
import { consume, refund } from '../../src/server/http/rateLimit';
import { forEachEngine } from '../helpers/db';

const LIMIT = { max: 1_000_000, windowMs: 60 * 60_000 };

forEachEngine('rate-limit counters, many requests at once', (get) => {
  it('count and give back shared keys in any order without a deadlock, ending where they began', async () => {
    const { db } = get();
    const keys = ['rl-test:a', 'rl-test:b', 'rl-test:c', 'rl-test:d', 'rl-test:e'].map((k) => `${k}-${process.pid}`);
    // Each request counts three or four of the keys, listed in its own order, and gives them back in another.
    const request = async (n: number) => {
      const mine = keys.filter((_, i) => (n + i) % 5 !== 0);
      const order = n % 2 ? [...mine].reverse() : mine;
      await consume(
        db,
        order.map((key) => ({ key, limit: LIMIT })),
      );
      await refund(db, n % 3 ? order : [...order].reverse());
    };
    const results = await Promise.allSettled(Array.from({ length: 300 }, (_, n) => request(n)));
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const rows = await db.select({ key: rateLimits.key, count: rateLimits.count }).from(rateLimits).where(inArray(rateLimits.key, keys));
    expect(rows).toHaveLength(keys.length);
    expect(rows.every((r) => r.count === 0)).toBe(true);
  }, 120_000);
});
