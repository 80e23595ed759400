// Database scale: the bookable-now listing and a booking insert at 10,000 stores, 80,000 tables
// and about 1,000,000 bookings, on PGlite and on PostgreSQL. A generator makes the data in SQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { startPostgres, summary } from './lib.mjs';

// The services are TypeScript; tsx lets this script import them as they are.
register();
const { openAndPrepare } = await import('../src/server/db/client.ts');
const { searchStores, listQuerySchema } = await import('../src/server/stores.ts');
const { createBooking } = await import('../src/server/bookings/create.ts');
const { nextMarks } = await import('../src/server/availability/rules.ts');

const STORES = 10_000;
const TABLES_PER_STORE = 8;

async function generate(sql, bookingsPerTable) {
  await sql.unsafe(`insert into areas (slug, name, name_kana, sort) select 'area-' || g, 'エリア' || g, 'エリア', g from generate_series(1, 20) g`);
  await sql.unsafe(`insert into stores (area_id, name, name_kana, genre, address, station, walk_minutes, lat, lng, phone, budget_min, budget_max, stay_minutes)
    select (select min(id) from areas) + (g % 20), '店舗' || g, 'テンポ', (array['izakaya','sushi','ramen','yakiniku','italian'])[1 + g % 5],
           '東京都', '渋谷駅', 1 + g % 10, 35.55 + (g % 100) * 0.003, 139.60 + (g / 100) * 0.003, '03-0000-0000', 2000, 5000, 120
    from generate_series(1, ${STORES}) g`);
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

async function measure(engine, handle, bookingsPerTable, runs) {
  const t0 = performance.now();
  await generate(handle.sql, bookingsPerTable);
  const generateMs = performance.now() - t0;
  const counts = (await handle.sql`select (select count(*)::int from stores) s, (select count(*)::int from store_tables) t, (select count(*)::int from bookings) b`)[0];
  const now = new Date();
  const rows = [];
  const near = listQuerySchema.parse({ party: 2, lat: '35.65', lng: '139.70' });
  const plain = listQuerySchema.parse({ party: 4 });
  await searchStores(handle.db, near, now); // warm caches
  rows.push({ engine, operation: 'bookable now, nearest first (page of 20)', ...(await time(() => searchStores(handle.db, near, now), runs)) });
  rows.push({ engine, operation: 'bookable now, party 4 (page of 20)', ...(await time(() => searchStores(handle.db, plain, now), runs)) });
  const stores24h = (await handle.sql`select id from stores where id % 3 = 0 order by id limit ${runs}`).map((r) => r.id);
  const start = nextMarks(now)[2] ?? nextMarks(now)[0];
  let ok = 0;
  rows.push({
    engine,
    operation: 'booking insert (guest, one transaction)',
    ...(await time(async (i) => {
      await createBooking(
        handle.db,
        { store_id: stores24h[i % stores24h.length], start: start.toISOString(), party_size: 2, note: '', name: '計測 太郎', name_kana: 'ケイソク タロウ', phone: '090-1234-5678', email: 'bench@example.jp' },
        { kind: 'guest', token: '' },
        now,
      ).then(
        (outcome) => outcome.kind === 'booked' && ok++,
        () => undefined,
      );
    }, runs)),
  });
  return { rows, counts, generateMs, ok };
}

export async function measureDbScale({ quick = false } = {}) {
  const bookingsPerTable = quick ? 2 : 13; // 80,000 tables × 13 ≈ 1,040,000 bookings
  const runs = quick ? 10 : 50;
  const out = { stores: STORES, tables: STORES * TABLES_PER_STORE, bookings: 0, rows: [], generateMs: {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-dbscale-'));
  const lite = await openAndPrepare({ dataDir: dir, seed: false });
  try {
    const r = await measure('pglite', lite, bookingsPerTable, runs);
    out.rows.push(...r.rows);
    out.bookings = r.counts.b;
    out.generateMs.pglite = Math.round(r.generateMs);
  } finally {
    await lite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const pg = await startPostgres();
  try {
    const pgHandle = await openAndPrepare({ databaseUrl: await pg.createDatabase('dbscale'), seed: false });
    try {
      const r = await measure('postgres', pgHandle, bookingsPerTable, runs);
      out.rows.push(...r.rows);
      out.generateMs.postgres = Math.round(r.generateMs);
    } finally {
      await pgHandle.close();
    }
  } finally {
    await pg.stop();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureDbScale({ quick: process.argv.includes('--quick') }), null, 2));
}
