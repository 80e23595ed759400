// Database scale: the availability index's build (time, memory) and the bookable-now listing at
// 1,000, 10,000 and 50,000 stores (8 tables each, bookings on every table), plus a booking insert,
// on PGlite and on PostgreSQL. A generator makes the data in SQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { register } from 'tsx/esm/api';
import { startPostgres, summary } from './lib.mjs';

// The services are TypeScript; tsx lets this script import them as they are.
register();
const { openAndPrepare } = await import('../src/server/db/startup.ts');
const { searchStores } = await import('../src/server/stores/search.ts');
const { listQuerySchema } = await import('../src/server/stores/query.ts');
const { createBooking } = await import('../src/server/bookings/create.ts');
const { nextMarks } = await import('../src/server/availability/rules.ts');
const { AvailabilityIndex } = await import('../src/server/availability/engine.ts');
const { readAllStores, readStores } = await import('../src/server/availability/source.ts');

const TABLES_PER_STORE = 8;
/** Bookings per table: 13 gives about 1,000,000 bookings at 10,000 stores. */
const BOOKINGS_PER_TABLE = 13;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

export async function generate(sql, stores, bookingsPerTable) {
  await sql.unsafe(`insert into areas (slug, name, name_kana, sort) select 'area-' || g, 'エリア' || g, 'エリア', g from generate_series(1, 20) g`);
  // Stores on a grid of about 0.3 km steps around Tokyo, whatever their number.
  const side = Math.ceil(Math.sqrt(stores));
  const step = 0.3 / Math.sqrt(stores / 10_000);
  await sql.unsafe(`insert into stores (area_id, name, name_kana, genre, address, station, walk_minutes, lat, lng, phone, budget_min, budget_max, stay_minutes)
    select (select min(id) from areas) + (g % 20), '店舗' || g, 'テンポ', (array['izakaya','sushi','ramen','yakiniku','italian'])[1 + g % 5],
           '東京都', '渋谷駅', 1 + g % 10, 35.55 + (g % ${side}) * ${step / 100}, 139.60 + (g / ${side}) * ${step / 100}, '03-0000-0000', 2000, 5000, 120
    from generate_series(1, ${stores}) g`);
  // A third open around the clock, the rest 17:00–02:00.
  await sql.unsafe(`insert into store_hours (store_id, weekday, opens_min, closes_min)
    select s.id, d, case when s.id % 3 = 0 then 0 else 1020 end, case when s.id % 3 = 0 then 1440 else 1560 end
    from stores s cross join generate_series(0, 6) d`);
  await sql.unsafe(`insert into store_tables (store_id, label, kind, min_party, max_party)
    select s.id, 'T' || t, (array['counter','table','private_room','tatami'])[1 + t % 4]::table_kind, 1, 2 + (t % 4) * 2
    from stores s cross join generate_series(1, ${TABLES_PER_STORE}) t`);
  // Bookings on every table, one a day across two weeks, with some of them holding tables right now.
  await sql.unsafe(`insert into bookings (code, store_id, table_id, party_size, starts_at, ends_at, status)
    select 'G' || t.id || '-' || i, t.store_id, t.id, 2,
           date_trunc('hour', now()) - interval '1 hour' + make_interval(hours => i * 25 + (t.id % 5)),
           date_trunc('hour', now()) + interval '1 hour' + make_interval(hours => i * 25 + (t.id % 5)),
           'confirmed'
    from store_tables t cross join generate_series(0, ${bookingsPerTable - 1}) i`);
  await sql.unsafe('analyze');
}

async function time(fn, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return summary(times);
}

const heldBytes = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** One build as an instance does it at start, with the listing's arrays and one party's flags made. */
async function oneBuild(source) {
  const index = new AvailabilityIndex(source, { log: () => {} });
  const t0 = performance.now();
  const view = await index.view(new Date());
  const ms = performance.now() - t0;
  view.search({ party: 2, start: 0, count: 20 });
  return { index, view, ms };
}

/** Build time (median of three) and the memory the first index keeps while it is in use. */
async function measureBuild(db) {
  const source = { all: (frame) => readAllStores(db, frame), some: (frame, ids) => readStores(db, frame, ids) };
  const before = heldBytes();
  const kept = await oneBuild(source);
  const heldMB = (heldBytes() - before) / 2 ** 20;
  const times = [kept.ms, (await oneBuild(source)).ms, (await oneBuild(source)).ms];
  return { buildMs: summary(times).p50, heldMB: Math.round(heldMB * 10) / 10, bitsMB: Math.round((kept.index.lastBuild.bytes / 2 ** 20) * 10) / 10 };
}

async function measure(engine, handle, stores, bookingsPerTable, runs, withInsert) {
  const t0 = performance.now();
  await generate(handle.sql, stores, bookingsPerTable);
  const generateMs = Math.round(performance.now() - t0);
  const counts = (
    await handle.sql`select (select count(*)::int from stores) s, (select count(*)::int from store_tables) t, (select count(*)::int from bookings) b`
  )[0];
  const build = await measureBuild(handle.db);
  const now = new Date();
  const rows = [];
  const near = listQuerySchema.parse({ party: 2, lat: '35.65', lng: '139.70' });
  const plain = listQuerySchema.parse({ party: 4 });
  await searchStores(handle.db, near, now); // builds the instance's index, warms caches
  const base = { engine, stores: counts.s, bookings: counts.b };
  rows.push({ ...base, operation: 'bookable now, nearest first (page of 20)', ...(await time(() => searchStores(handle.db, near, now), runs)) });
  rows.push({ ...base, operation: 'bookable now, party 4 (page of 20)', ...(await time(() => searchStores(handle.db, plain, now), runs)) });
  if (withInsert) {
    const stores24h = (await handle.sql`select id from stores where id % 3 = 0 order by id limit ${runs}`).map((r) => r.id);
    const start = nextMarks(now)[2] ?? nextMarks(now)[0];
    rows.push({
      ...base,
      operation: 'booking insert (guest, one transaction)',
      ...(await time(async (i) => {
        await createBooking(
          handle.db,
          {
            store_id: stores24h[i % stores24h.length],
            start: start.toISOString(),
            party_size: 2,
            note: '',
            name: '計測 太郎',
            name_kana: 'ケイソク タロウ',
            phone: '090-1234-5678',
            email: 'bench@example.jp',
          },
          { kind: 'guest', token: '' },
          now,
        ).catch(() => undefined);
      }, runs)),
    });
  }
  return { rows, build: { engine, stores: counts.s, bookings: counts.b, generateMs, ...build } };
}

async function onEachEngine(sizes, fn) {
  for (const stores of sizes) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-dbscale-'));
    const lite = await openAndPrepare({ dataDir: dir, seed: false });
    try {
      await fn('pglite', lite, stores);
    } finally {
      await lite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const pg = await startPostgres();
  try {
    for (const stores of sizes) {
      const handle = await openAndPrepare({ databaseUrl: await pg.createDatabase(`dbscale_${stores}`), seed: false });
      try {
        await fn('postgres', handle, stores);
      } finally {
        await handle.close();
      }
    }
  } finally {
    await pg.stop();
  }
}

export async function measureDbScale({ quick = false, sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 50_000] } = {}) {
  const bookingsPerTable = quick ? 2 : BOOKINGS_PER_TABLE;
  const runs = quick ? 20 : 100;
  const out = { tablesPerStore: TABLES_PER_STORE, bookingsPerTable, rows: [], builds: [] };
  await onEachEngine(sizes, async (engine, handle, stores) => {
    const r = await measure(engine, handle, stores, bookingsPerTable, runs, stores === 10_000);
    out.rows.push(...r.rows);
    out.builds.push(r.build);
    console.log(JSON.stringify(r.build));
  });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.filter((a) => /^\d+$/.test(a)).map(Number);
  console.log(JSON.stringify(await measureDbScale({ quick: process.argv.includes('--quick'), ...(sizes.length ? { sizes } : {}) }), null, 2));
}
