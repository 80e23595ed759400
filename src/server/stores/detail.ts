/**
 * One store's details (hours, closures, photos, its largest party), kept in memory until a change to
 * the store is announced (src/server/storeDetails.ts).
 */
import type { QueueMode } from '../../lib/contract/queue';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { areas, storeClosures, storeHours, stores, storeTables, type StorePhoto } from '../db/schema';
import { addTokyoDays, tokyoParts } from '../../lib/datetime';
import { cachedStoreDetail } from '../storeDetails';
import type { Genre } from '../../lib/contract/enums';
import { clock } from '../clock';
import { largestParty, type TableSize } from '../../lib/party';
import { storeFactColumns } from './columns';

/** Read-only: one object is shared by every view while it is kept (storeDetails.ts). */
export interface StoreDetail {
  id: number;
  name: string;
  nameKana: string;
  genre: Genre;
  areaId: number;
  areaName: string;
  address: string;
  station: string;
  walkMinutes: number;
  lat: number;
  lng: number;
  phone: string;
  budgetMin: number;
  budgetMax: number;
  description: string;
  photos: readonly StorePhoto[];
  stayMinutes: number;
  /** Turn times of some party sizes, `[party, minutes]`; others stay `stayMinutes`. */
  turnTimes: readonly [number, number][];
  cancellationPolicy: string;
  tags: readonly string[];
  /** Weekly hours, by weekday then opening. */
  hours: readonly { weekday: number; opensMin: number; closesMin: number }[];
  /** One-off days from yesterday (Tokyo) on, earliest first: closed (臨時休業) when `hours` is empty, else these openings instead of the week's. */
  closures: readonly { date: string; hours: [number, number][] }[];
  /** Largest party one table diners may book can seat. */
  maxParty: number;
  /** When the store takes a queue (順番待ち): only while nothing is free within the hour, or always. */
  queueMode: QueueMode;
}

/** A store's details, from memory while no change to the store has been announced (storeDetails.ts). */
export function getStore(db: Db, id: number): Promise<StoreDetail | null> {
  return cachedStoreDetail(db, id, readStore);
}

async function readStore(db: Db, id: number): Promise<StoreDetail | null> {
  // Yesterday by the server's clock (src/server/clock.ts), not the database's now(), like every other date of the listing.
  const since = addTokyoDays(tokyoParts(clock.now()).date, -1);
  const [row] = await db
    .select({
      ...storeFactColumns,
      address: stores.address,
      phone: stores.phone,
      description: stores.description,
      turnTimes: stores.turnTimes,
      cancellationPolicy: stores.cancellationPolicy,
      queueMode: stores.queueMode,
      // In the same statement: one round trip per (re)read.
      hours: sql<StoreDetail['hours']>`(
        select coalesce(json_agg(json_build_object('weekday', h.weekday, 'opensMin', h.opens_min, 'closesMin', h.closes_min) order by h.weekday, h.opens_min), '[]')
        from ${storeHours} h where h.store_id = ${stores.id})`,
      closures: sql<StoreDetail['closures']>`(
        select coalesce(json_agg(json_build_object('date', to_char(c.date, 'YYYY-MM-DD'), 'hours', c.hours) order by c.date), '[]')
        from ${storeClosures} c where c.store_id = ${stores.id} and c.date >= ${since})`,
      tableSizes: sql<
        TableSize[]
      >`(select coalesce(json_agg(json_build_object('maxParty', t.max_party, 'online', t.online)), '[]') from ${storeTables} t where t.store_id = ${stores.id})`,
    })
    .from(stores)
    .innerJoin(areas, eq(areas.id, stores.areaId))
    .where(eq(stores.id, id));
  // Shared by every view while it is kept: frozen, so that no page can change another's.
  if (!row) return null;
  const { tableSizes, ...detail } = row;
  return Object.freeze({
    ...detail,
    maxParty: largestParty(tableSizes),
    hours: Object.freeze(detail.hours),
    closures: Object.freeze(detail.closures),
    photos: Object.freeze(detail.photos),
    tags: Object.freeze(detail.tags),
  });
}

export async function storeExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, id));
  return Boolean(row);
}
