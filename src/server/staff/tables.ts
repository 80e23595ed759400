/** The store's tables as staff see them. */
import { asc, eq } from 'drizzle-orm';
import type { Q } from '../db/types';
import { storeTables } from '../db/schema';
import type { StoreTablesJson } from '../../lib/contract/store';

export async function listTables(q: Q, storeId: number): Promise<StoreTablesJson> {
  const rows = await q
    .select({ id: storeTables.id, label: storeTables.label, kind: storeTables.kind, min_party: storeTables.minParty, max_party: storeTables.maxParty })
    .from(storeTables)
    .where(eq(storeTables.storeId, storeId))
    .orderBy(asc(storeTables.id));
  return { store_id: storeId, items: rows };
}
