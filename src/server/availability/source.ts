/**
 * What the availability index reads from the database: every store at start, one store (or a few)
 * after a change. Bookings arrive already cut into 15-minute cells of the frame, grouped by table,
 * so a build at 10,000 stores / 1,000,000 bookings moves arrays of small integers, not a million
 * row objects.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { STEP_MS, type Frame, type Held, type StoreInput } from './grid';
import type { WeeklyHours } from './rules';
import type { TableKind } from '../../lib/contract/enums';

type Filter = (column: SQL) => SQL;

async function read(db: Db, frame: Frame, only: Filter): Promise<Map<number, StoreInput>> {
  const startSec = frame.startMs / 1000;
  const stepSec = STEP_MS / 1000;
  const [storeRows, hourRows, tableRows, heldRows] = await Promise.all([
    db.execute<{ id: number; stay: number }>(sql`select id, stay_minutes as stay from stores where ${only(sql`id`)}`),
    db.execute<{ store_id: number; weekday: number; opens_min: number; closes_min: number }>(
      sql`select store_id, weekday, opens_min, closes_min from store_hours where ${only(sql`store_id`)}`,
    ),
    db.execute<{ store_id: number; id: number; kind: TableKind; min_party: number; max_party: number }>(
      sql`select store_id, id, kind, min_party, max_party from store_tables where ${only(sql`store_id`)}`,
    ),
    db.execute<{ store_id: number; table_id: number; f: number[]; t: number[] }>(sql`
      select store_id, table_id,
             array_agg(floor((extract(epoch from starts_at) - ${startSec}::float8) / ${stepSec})::int) as f,
             array_agg(ceil((extract(epoch from ends_at) - ${startSec}::float8) / ${stepSec})::int) as t
      from bookings
      where status = 'confirmed' and starts_at < ${new Date(frame.endMs)} and ends_at > ${new Date(frame.startMs)} and ${only(sql`store_id`)}
      group by store_id, table_id`),
  ]);
  const out = new Map<number, StoreInput & { hours: WeeklyHours[]; tables: StoreInput['tables'][number][]; held: Held[] }>();
  for (const s of storeRows) out.set(Number(s.id), { stayMinutes: Number(s.stay), hours: [], tables: [], held: [] });
  for (const h of hourRows) out.get(Number(h.store_id))?.hours.push({ weekday: Number(h.weekday), opensMin: Number(h.opens_min), closesMin: Number(h.closes_min) });
  for (const t of tableRows) {
    out.get(Number(t.store_id))?.tables.push({ id: Number(t.id), kind: t.kind, minParty: Number(t.min_party), maxParty: Number(t.max_party) });
  }
  for (const r of heldRows) {
    const held = out.get(Number(r.store_id))?.held;
    if (!held) continue;
    const tableId = Number(r.table_id);
    for (let i = 0; i < r.f.length; i++) held.push({ tableId, from: Number(r.f[i]), to: Number(r.t[i]) });
  }
  return out;
}

/** Every store, for a build. */
export const readAllStores = (db: Db, frame: Frame) => read(db, frame, () => sql`true`);

/** Some stores, after a change; stores that no longer exist are absent. */
export function readStores(db: Db, frame: Frame, ids: readonly number[]): Promise<Map<number, StoreInput>> {
  const list = sql.raw(`'{${ids.filter((id) => Number.isInteger(id)).join(',')}}'`);
  return read(db, frame, (column) => sql`${column} = any(${list}::int[])`);
}
