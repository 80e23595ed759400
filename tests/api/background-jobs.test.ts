/**
 * The periodic jobs (src/server/background.ts), on both engines: the sweep of old availability
 * events, the sweep of watches whose windows ended a day ago, and the reload that makes watches
 * written by other instances known to this one's matcher.
 */
import { beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { forEachEngine } from '../helpers/db';
import { prepare } from './booking-fixtures';
import { availabilityEvents, watches } from '../../src/server/db/schema';
import { pruneAvailabilityEvents } from '../../src/server/events';
import { pruneWatches } from '../../src/server/watches/notify';
import { reloadWatches, watchMatcher } from '../../src/server/watches/matcher';

const HOUR = 3_600_000;

forEachEngine('background jobs', (db) => {
  let storeId: number;
  const watch = (endsAt: Date, email: string) => ({
    email,
    storeId,
    partySize: 2,
    startsFrom: new Date(endsAt.getTime() - HOUR),
    endsAt,
    confirmedAt: new Date(),
    locale: 'ja',
  });

  beforeAll(async () => {
    ({ storeId } = await prepare(db().db));
  });

  it('pruneAvailabilityEvents deletes the rows older than the retention and keeps the rest', async () => {
    const d = db().db;
    await d
      .insert(availabilityEvents)
      .values([{ storeId, createdAt: new Date(Date.now() - 3 * HOUR) }, { storeId, createdAt: new Date(Date.now() - 2 * HOUR) }, { storeId }]);
    expect(await pruneAvailabilityEvents(d, 1 * HOUR)).toBe(2);
    const left = await d.select().from(availabilityEvents).where(eq(availabilityEvents.storeId, storeId));
    expect(left).toHaveLength(1);
    expect(left[0]!.createdAt.getTime()).toBeGreaterThan(Date.now() - HOUR);
    // Nothing older is left, so a second sweep deletes nothing.
    expect(await pruneAvailabilityEvents(d, 1 * HOUR)).toBe(0);
  });

  it('pruneWatches deletes watches that ended more than a day ago, and only those', async () => {
    const d = db().db;
    const now = new Date();
    await d
      .insert(watches)
      .values([
        watch(new Date(now.getTime() - 25 * HOUR), 'ended-long-ago@example.jp'),
        watch(new Date(now.getTime() - 23 * HOUR), 'ended-yesterday@example.jp'),
        watch(new Date(now.getTime() + 2 * HOUR), 'still-open@example.jp'),
      ]);
    await pruneWatches(d, now);
    const left = (await d.select({ email: watches.email }).from(watches)).map((w) => w.email).sort();
    expect(left).toEqual(['ended-yesterday@example.jp', 'still-open@example.jp']);
  });

  it('reloadWatches makes a watch written elsewhere known here, and forgets one cancelled elsewhere', async () => {
    const d = db().db;
    const entry = watchMatcher(d);
    await entry.loaded;
    const before = entry.matcher.size;
    // Another instance writes a watch straight into the database: this matcher does not know it yet.
    const [row] = await d
      .insert(watches)
      .values(watch(new Date(Date.now() + 3 * HOUR), 'from-another-instance@example.jp'))
      .returning({ id: watches.id });
    expect(entry.matcher.size).toBe(before);
    await reloadWatches(d);
    expect(entry.matcher.size).toBe(before + 1);
    // And cancels it there: the next reload drops it.
    await d.update(watches).set({ cancelledAt: sql`now()` }).where(eq(watches.id, row!.id));
    await reloadWatches(d);
    expect(entry.matcher.size).toBe(before);
  });
});
