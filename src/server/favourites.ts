/** A signed-in diner's favourite stores. Every call is scoped to the user it is given. */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from './db/types';
import { favourites } from './db/schema';
import { storeCards, type StoreCard } from './stores/search';
import { storeExists } from './stores/detail';
import { clock } from './clock';

/** Newest first, each with its live "bookable now" state for the party. */
export async function listFavourites(db: Db, userId: number, party: number, now = clock.now()): Promise<Array<StoreCard & { addedAt: Date }>> {
  const rows = await db
    .select({ storeId: favourites.storeId, createdAt: favourites.createdAt })
    .from(favourites)
    .where(eq(favourites.userId, userId))
    .orderBy(desc(favourites.createdAt), desc(favourites.storeId));
  const added = new Map(rows.map((r) => [r.storeId, r.createdAt]));
  const cards = await storeCards(
    db,
    rows.map((r) => r.storeId),
    party,
    now,
  );
  return cards.map((c) => ({ ...c, addedAt: added.get(c.id)! }));
}

/** Which of these stores the user keeps as favourites (for the toggles on a page of cards). */
export async function favouriteIds(db: Db, userId: number | null | undefined, storeIds: readonly number[]): Promise<Set<number>> {
  if (!userId || !storeIds.length) return new Set();
  const rows = await db
    .select({ storeId: favourites.storeId })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), inArray(favourites.storeId, [...storeIds])));
  return new Set(rows.map((r) => r.storeId));
}

/** Adds a favourite (idempotent). False when the store does not exist. */
export async function addFavourite(db: Db, userId: number, storeId: number): Promise<boolean> {
  if (!(await storeExists(db, storeId))) return false;
  await db.insert(favourites).values({ userId, storeId }).onConflictDoNothing();
  return true;
}

/** Removes a favourite (idempotent). False when the store does not exist. */
export async function removeFavourite(db: Db, userId: number, storeId: number): Promise<boolean> {
  if (!(await storeExists(db, storeId))) return false;
  await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.storeId, storeId)));
  return true;
}
