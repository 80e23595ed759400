/** A signed-in diner's viewing history: one entry per store, refreshed on each view, newest first. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from './db/types';
import { viewingHistory } from './db/schema';
import { storeCards, type StoreCard } from './stores/search';
import { clock } from './clock';

/** Entries kept per user; older ones are dropped as new views come in. */
export const HISTORY_LIMIT = 50;

/** Records (or refreshes) a view and trims the user's history to the newest HISTORY_LIMIT. */
export async function recordView(db: Db, userId: number, storeId: number, at = clock.now()): Promise<void> {
  await db
    .insert(viewingHistory)
    .values({ userId, storeId, viewedAt: at })
    .onConflictDoUpdate({ target: [viewingHistory.userId, viewingHistory.storeId], set: { viewedAt: at } });
  await db.execute(sql`
    delete from ${viewingHistory}
    where ${viewingHistory.userId} = ${userId}
      and ${viewingHistory.storeId} not in (
        select ${viewingHistory.storeId} from ${viewingHistory}
        where ${viewingHistory.userId} = ${userId}
        order by ${viewingHistory.viewedAt} desc, ${viewingHistory.storeId} desc
        limit ${HISTORY_LIMIT})`);
}

export async function listHistory(db: Db, userId: number, party: number, now = clock.now()): Promise<Array<StoreCard & { viewedAt: Date }>> {
  const rows = await db
    .select({ storeId: viewingHistory.storeId, viewedAt: viewingHistory.viewedAt })
    .from(viewingHistory)
    .where(eq(viewingHistory.userId, userId))
    .orderBy(desc(viewingHistory.viewedAt), desc(viewingHistory.storeId))
    .limit(HISTORY_LIMIT);
  const viewed = new Map(rows.map((r) => [r.storeId, r.viewedAt]));
  const cards = await storeCards(
    db,
    rows.map((r) => r.storeId),
    party,
    now,
  );
  return cards.map((c) => ({ ...c, viewedAt: viewed.get(c.id)! }));
}

/** Removes one entry (idempotent). */
export async function removeView(db: Db, userId: number, storeId: number): Promise<void> {
  await db.delete(viewingHistory).where(and(eq(viewingHistory.userId, userId), eq(viewingHistory.storeId, storeId)));
}
