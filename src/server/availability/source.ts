/**
 * What the availability index reads from the database: every store at start, one store (or a few)
 * after a change. Bookings arrive already cut into 15-minute cells of the frame, grouped by table,
 * so a build at 10,000 stores / 1,000,000 bookings moves arrays of small integers, not a million
 * row objects.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { FRAME_DAYS, STEP_MS, type Frame, type Held, type StoreInput } from './grid';
import { closureOverride, turnTimesOf, type DayOverride, type WeeklyHours } from './rules';
import { addTokyoDays } from '../../lib/datetime';
import { clock } from '../clock';
import type { Genre, TableKind } from '../../lib/contract/enums';
import type { StoreFacts, StoreRecord } from './engine';
import type { StorePhoto } from '../db/schema';

type FactsRow = {
  id: number;
  stay: number;
  turn_times: [number, number][];
  name: string;
  name_kana: string;
  genre: Genre;
  area_id: number;
  area_name: string;
  station: string;
  walk_minutes: number;
  budget_min: number;
  budget_max: number;
  photo: StorePhoto | null;
  lat: number;
  lng: number;
  tags: string[];
};

const factsOf = (r: FactsRow): StoreFacts => ({
  name: r.name,
  nameKana: r.name_kana,
  genre: r.genre,
  areaId: Number(r.area_id),
  areaName: r.area_name,
  station: r.station,
  walkMinutes: Number(r.walk_minutes),
  budgetMin: Number(r.budget_min),
  budgetMax: Number(r.budget_max),
  photo: r.photo ?? null,
  lat: Number(r.lat),
  lng: Number(r.lng),
  tags: r.tags ?? [],
});

/** The one-off days that can touch the frame: from two days before it (a night still open) to its end. */
const closureRange = (frame: Frame) => ({ from: addTokyoDays(frame.date, -2), to: addTokyoDays(frame.date, FRAME_DAYS) });

/**
 * What holds a table: confirmed bookings (and blocks), and the starts held for a watcher until
 * their deadline (src/server/watches/holds.ts) — by the server's clock, so a hold past its
 * deadline is free again whether or not an instance has marked it expired.
 */
const takenRows = () => sql`
  select store_id, table_id, starts_at, ends_at from bookings where status = 'confirmed'
  union all
  select store_id, table_id, starts_at, ends_at from watch_holds where state = 'offered' and expires_at > ${clock.now()}`;

/** Every store, for a build: five statements, the bookings as arrays of cell numbers per table. */
export async function readAllStores(db: Db, frame: Frame): Promise<Map<number, StoreRecord>> {
  const startSec = frame.startMs / 1000;
  const stepSec = STEP_MS / 1000;
  const closures = closureRange(frame);
  const [storeRows, hourRows, tableRows, heldRows, closureRows] = await Promise.all([
    db.execute<FactsRow>(sql`
      select s.id, s.stay_minutes as stay, s.turn_times, s.name, s.name_kana, s.genre, s.area_id, a.name as area_name, s.station, s.walk_minutes,
             s.budget_min, s.budget_max, s.photos -> 0 as photo, s.lat, s.lng, s.tags
      from stores s join areas a on a.id = s.area_id`),
    db.execute<{ store_id: number; weekday: number; opens_min: number; closes_min: number }>(
      sql`select store_id, weekday, opens_min, closes_min from store_hours`,
    ),
    db.execute<{ store_id: number; id: number; kind: TableKind; min_party: number; max_party: number; online: boolean }>(
      sql`select store_id, id, kind, min_party, max_party, online from store_tables`,
    ),
    db.execute<{ store_id: number; table_id: number; f: number[]; t: number[] }>(sql`
      select store_id, table_id,
             array_agg(floor((extract(epoch from starts_at) - ${startSec}::float8) / ${stepSec})::int) as f,
             array_agg(ceil((extract(epoch from ends_at) - ${startSec}::float8) / ${stepSec})::int) as t
      from (${takenRows()}) b
      where starts_at < ${new Date(frame.endMs)} and ends_at > ${new Date(frame.startMs)}
      group by store_id, table_id`),
    db.execute<{ store_id: number; date: string; hours: [number, number][] }>(
      sql`select store_id, to_char(date, 'YYYY-MM-DD') as date, hours from store_closures where date between ${closures.from} and ${closures.to}`,
    ),
  ]);
  const out = new Map<number, StoreRecord & { hours: WeeklyHours[]; overrides: DayOverride[]; tables: StoreInput['tables'][number][]; held: Held[] }>();
  for (const s of storeRows)
    out.set(Number(s.id), {
      stayMinutes: Number(s.stay),
      turnTimes: turnTimesOf(s.turn_times),
      hours: [],
      overrides: [],
      tables: [],
      held: [],
      facts: factsOf(s),
    });
  for (const c of closureRows) out.get(Number(c.store_id))?.overrides.push(closureOverride(c.date, c.hours));
  for (const h of hourRows)
    out.get(Number(h.store_id))?.hours.push({ weekday: Number(h.weekday), opensMin: Number(h.opens_min), closesMin: Number(h.closes_min) });
  for (const t of tableRows) {
    out
      .get(Number(t.store_id))
      ?.tables.push({ id: Number(t.id), kind: t.kind, minParty: Number(t.min_party), maxParty: Number(t.max_party), online: Boolean(t.online) });
  }
  for (const r of heldRows) {
    const held = out.get(Number(r.store_id))?.held;
    if (!held) continue;
    const tableId = Number(r.table_id);
    for (let i = 0; i < r.f.length; i++) held.push({ tableId, from: Number(r.f[i]), to: Number(r.t[i]) });
  }
  return out;
}

/**
 * Some stores, after a change, in one statement (a booking waits for this before it answers);
 * stores that no longer exist are absent.
 */
export async function readStores(db: Db, frame: Frame, ids: readonly number[]): Promise<Map<number, StoreRecord>> {
  // A parameter, not text: one statement for every set of stores (src/server/db/named.ts).
  const list = `{${ids.filter((id) => Number.isInteger(id)).join(',')}}`;
  const startSec = frame.startMs / 1000;
  const stepSec = STEP_MS / 1000;
  const closures = closureRange(frame);
  type Row = FactsRow & {
    closures: [string, [number, number][]][];
    hours: [number, number, number][];
    tables: [number, TableKind, number, number, boolean][];
    held: [number, number, number][];
  };
  const rows = await db.execute<Row>(sql`
    select s.id, s.stay_minutes as stay, s.turn_times, s.name, s.name_kana, s.genre, s.area_id, a.name as area_name, s.station, s.walk_minutes,
           s.budget_min, s.budget_max, s.photos -> 0 as photo, s.lat, s.lng, s.tags,
           (select coalesce(json_agg(json_build_array(weekday, opens_min, closes_min)), '[]') from store_hours where store_id = s.id) as hours,
           (select coalesce(json_agg(json_build_array(id, kind, min_party, max_party, online)), '[]') from store_tables where store_id = s.id) as tables,
           (select coalesce(json_agg(json_build_array(to_char(date, 'YYYY-MM-DD'), hours)), '[]') from store_closures
             where store_id = s.id and date between ${closures.from} and ${closures.to}) as closures,
           (select coalesce(json_agg(json_build_array(table_id,
                     floor((extract(epoch from starts_at) - ${startSec}::float8) / ${stepSec})::int,
                     ceil((extract(epoch from ends_at) - ${startSec}::float8) / ${stepSec})::int)), '[]')
              from (${takenRows()}) b
             where store_id = s.id and starts_at < ${new Date(frame.endMs)} and ends_at > ${new Date(frame.startMs)}) as held
    from stores s join areas a on a.id = s.area_id
    where s.id = any(${list}::int[])`);
  const out = new Map<number, StoreRecord>();
  for (const r of rows) {
    out.set(Number(r.id), {
      stayMinutes: Number(r.stay),
      turnTimes: turnTimesOf(r.turn_times),
      hours: r.hours.map(([weekday, opensMin, closesMin]) => ({ weekday, opensMin, closesMin })),
      overrides: r.closures.map(([date, hours]) => closureOverride(date, hours)),
      tables: r.tables.map(([id, kind, minParty, maxParty, online]) => ({ id, kind, minParty, maxParty, online })),
      held: r.held.map(([tableId, from, to]) => ({ tableId, from, to })),
      facts: factsOf(r),
    });
  }
  return out;
}
