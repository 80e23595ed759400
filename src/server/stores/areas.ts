/**
 * Areas: their names (kept for a minute), their store counts from the availability index, one area,
 * and the filter tags some store carries.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { areas, stores } from '../db/schema';
import { availabilityView } from '../availability';
import { databaseAway, noteDatabaseFailure } from '../db/health';
import { FILTER_TAG_KEYS, type FilterTag } from '../../lib/contract/enums';
import { tagKeysOf } from '../availability/catalog';
import { clock } from '../clock';

export interface AreaSummary {
  id: number;
  slug: string;
  name: string;
  storeCount: number;
}

/** Areas change only with a deploy or on the store host: their names are kept for a minute. */
const AREAS_TTL_MS = 60_000;
const areaNames = new WeakMap<Db, { at: number; rows: Promise<Omit<AreaSummary, 'storeCount'>[]> }>();

/** The last names read, kept for when the database is away (the listing is then served from memory). */
const lastAreaNames = new WeakMap<Db, Omit<AreaSummary, 'storeCount'>[]>();

function areaRows(db: Db): Promise<Omit<AreaSummary, 'storeCount'>[]> {
  const cached = areaNames.get(db);
  if (cached && Date.now() - cached.at < AREAS_TTL_MS) return cached.rows;
  const rows = db
    .select({ id: areas.id, slug: areas.slug, name: areas.name })
    .from(areas)
    .orderBy(asc(areas.sort), asc(areas.id))
    .then(
      (read) => (lastAreaNames.set(db, read), read),
      (error: unknown) => {
        const kept = lastAreaNames.get(db);
        if (kept && noteDatabaseFailure(error)) return kept;
        throw error;
      },
    );
  areaNames.set(db, { at: Date.now(), rows });
  rows.then(
    () => databaseAway() && areaNames.delete(db),
    () => areaNames.delete(db),
  );
  return rows;
}

/** The filter tags some store carries (all of them when the index cannot say). */
export async function offeredTags(db: Db, now = clock.now()): Promise<FilterTag[]> {
  const view = await availabilityView(db, now);
  return view ? tagKeysOf(view.tagsInUse()) : [...FILTER_TAG_KEYS];
}

/** Every area with its number of stores (counted by the availability index, which holds every store). */
export async function listAreas(db: Db): Promise<AreaSummary[]> {
  const view = await availabilityView(db, clock.now());
  if (!view) {
    return db
      .select({ id: areas.id, slug: areas.slug, name: areas.name, storeCount: sql<number>`count(${stores.id})::int` })
      .from(areas)
      .leftJoin(stores, eq(stores.areaId, areas.id))
      .groupBy(areas.id)
      .orderBy(asc(areas.sort), asc(areas.id));
  }
  const counts = view.storesPerArea();
  return (await areaRows(db)).map((a) => ({ ...a, storeCount: counts.get(a.id) ?? 0 }));
}

export async function findArea(db: Db, id: number): Promise<{ id: number; name: string; slug: string } | null> {
  // The names the area list keeps (the page shows that list too); an area made since is read.
  const kept = (await areaRows(db)).find((a) => a.id === id);
  if (kept) return { id: kept.id, name: kept.name, slug: kept.slug };
  const [row] = await db.select({ id: areas.id, name: areas.name, slug: areas.slug }).from(areas).where(eq(areas.id, id));
  return row ?? null;
}
