/**
 * The end of a watch's life: a freed start is offered to its watchers one at a time, each with a
 * hold (src/server/watches/holds.ts), and a watch whose window has ended is no longer anyone's.
 */
import { lte, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { watches } from '../db/schema';
import { MINUTE_MS } from '../../lib/datetime';
import { clock } from '../clock';

/** Deletes the watches whose windows ended more than a day ago (their holds go with them). */
export async function pruneWatches(db: Db, now = clock.now()): Promise<void> {
  await db.delete(watches).where(lte(watches.endsAt, sql`${new Date(now.getTime() - 24 * 60 * MINUTE_MS).toISOString()}::timestamptz`));
}
