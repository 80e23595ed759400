// Watches (空席通知) at scale: 10,000 active watches (half on one store, half on an area's search)
// and a storm of cancellations, each freeing a table in a store that was full. For each change, as
// a server handles it: the store re-read by the availability index, the time the matcher takes to
// find the watches the freed table fits (only the store's own and its area's are looked at), and
// the offer: the freed starts held for the first watchers in the order they asked, one table each
// (src/server/watches/holds.ts: the store's lock, the hold, its mail and push queued, in one
// transaction per start). On an embedded database in this process; the stores are open around the
// clock, so the figures hold at any hour.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { summary } from './lib.mjs';

register();
const { openAndPrepare } = await import('../src/server/db/startup.ts');
const { AvailabilityIndex } = await import('../src/server/availability/engine.ts');
const { readAllStores, readStores } = await import('../src/server/availability/source.ts');
const { WatchMatcher } = await import('../src/server/watches/matcher.ts');
const { offerFreed } = await import('../src/server/watches/holds.ts');
const { searchQueryWords } = await import('../src/lib/searchText.ts');

const AREAS = 20;
const TABLES = 8;
const QUARTER = 15 * 60_000;

export async function measureWatches({ quick = false } = {}) {
  const stores = quick ? 500 : 2_000;
  const watchCount = 10_000;
  const storm = quick ? 100 : 500;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-bench-watches-'));
  const h = await openAndPrepare({ dataDir: dir, seed: false });
  try {
    const { sql } = h;
    const now = new Date();
    // The start the storm frees: the second quarter-hour mark ahead, inside every watch's window.
    const start = new Date(Math.ceil(now.getTime() / QUARTER) * QUARTER + QUARTER);
    await sql.unsafe(`insert into areas (slug, name, name_kana, sort) select 'area-' || g, 'エリア' || g, 'エリア', g from generate_series(1, ${AREAS}) g`);
    await sql.unsafe(`insert into stores (area_id, name, name_kana, genre, address, station, walk_minutes, lat, lng, phone, budget_min, budget_max, stay_minutes)
      select (select min(id) from areas) + (g % ${AREAS}), '店舗' || g, 'テンポ', (array['izakaya','sushi','ramen','yakiniku','italian'])[1 + g % 5],
             '東京都', '渋谷駅', 1 + g % 10, 35.6 + (g % 50) * 0.001, 139.7 + (g / 50) * 0.001, '03-0000-0000', 2000, 5000, 120
      from generate_series(1, ${stores}) g`);
    await sql.unsafe(
      `insert into store_hours (store_id, weekday, opens_min, closes_min) select s.id, d, 0, 1440 from stores s cross join generate_series(0, 6) d`,
    );
    await sql.unsafe(`insert into store_tables (store_id, label, kind, min_party, max_party)
      select s.id, 'T' || t, 'table', 1, 2 + (t % 4) * 2 from stores s cross join generate_series(1, ${TABLES}) t`);
    // The storm's stores are full at the start: every table taken for a stay around it.
    await sql.unsafe(`insert into bookings (code, store_id, table_id, party_size, starts_at, ends_at)
      select 'W' || t.id, t.store_id, t.id, 2, '${start.toISOString()}'::timestamptz, '${new Date(start.getTime() + 120 * 60_000).toISOString()}'::timestamptz
      from store_tables t where t.store_id <= (select min(id) from stores) + ${storm - 1}`);
    // Half on one store, half on an area (a third of those with a genre, a tenth with a keyword); parties 2–4; the next 1–3 hours.
    await sql.unsafe(`insert into watches (email, confirmed_at, store_id, area_id, genre, keyword, party_size, starts_from, ends_at)
      select 'w' || g || '@example.jp', now(),
             case when g % 2 = 0 then (select min(id) from stores) + (g * 7919) % ${stores} end,
             case when g % 2 = 1 then (select min(id) from areas) + g % ${AREAS} end,
             case when g % 2 = 1 and g % 3 = 0 then (array['izakaya','sushi','ramen','yakiniku','italian'])[1 + g % 5] end,
             case when g % 2 = 1 and g % 10 = 1 then '店舗' end,
             2 + g % 3, '${now.toISOString()}'::timestamptz, '${now.toISOString()}'::timestamptz + make_interval(hours => 1 + g % 3)
      from generate_series(1, ${watchCount}) g`);

    const matcher = new WatchMatcher();
    matcher.clock = () => now;
    const rows = await sql.unsafe('select id, store_id, area_id, genre, keyword, party_size, starts_from, ends_at from watches');
    for (const r of rows) {
      matcher.add({
        id: r.id,
        storeId: r.store_id,
        areaId: r.area_id,
        genre: r.genre,
        keyword: r.keyword ? searchQueryWords(r.keyword) : null,
        partySize: r.party_size,
        from: +new Date(r.starts_from),
        until: +new Date(r.ends_at),
        owner: null,
        confirmed: true,
      });
    }

    const matchMs = [];
    let found = [];
    const index = new AvailabilityIndex(
      { all: (frame) => readAllStores(h.db, frame), some: (frame, ids) => readStores(h.db, frame, ids) },
      {
        // Only failures: a refresh that fails would otherwise leave the figures empty without a word.
        log: (m) => (m?.level === 'error' ? console.error(m) : undefined),
        clock: () => now,
        onReplace: (storeId, before, after, frame) => {
          const t0 = performance.now();
          const freed = matcher.freed(storeId, before, after, frame);
          matchMs.push(performance.now() - t0);
          if (freed.length) found.push({ storeId, freed });
        },
      },
    );
    await index.view(now);
    // The storm: one cancellation per full store (its largest table), each re-read as a booking
    // change is and then offered, one change after another.
    const cancelled = await sql.unsafe(`update bookings b set status = 'cancelled' from store_tables t
      where t.id = b.table_id and t.max_party = 8 and t.label = 'T3' and b.code like 'W%' returning b.store_id`);
    const refreshMs = [];
    const offerMs = [];
    const changeMs = [];
    let fitted = 0;
    // The offers' mails are logged as the server logs them; the storm's would drown the figures.
    const log = console.log;
    console.log = () => {};
    const s0 = performance.now();
    try {
      for (const r of cancelled) {
        found = [];
        const t0 = performance.now();
        await index.refresh([r.store_id]);
        const t1 = performance.now();
        for (const f of found) await offerFreed(h.db, f.storeId, f.freed, now, 'https://sugu.example');
        const t2 = performance.now();
        refreshMs.push(t1 - t0);
        // The offer's latency where there was one to make (a change no watch fits costs nothing).
        if (found.length) {
          offerMs.push(t2 - t1);
          changeMs.push(t2 - t0);
          fitted += found.reduce((n, f) => n + f.freed.length, 0);
        }
      }
    } finally {
      console.log = log;
    }
    const stormMs = performance.now() - s0;
    const [held] = await sql.unsafe(
      `select count(*)::int as holds, count(distinct watch_id)::int as watches, count(distinct store_id)::int as stores from watch_holds`,
    );
    // One diner, one open offer: no watch address holds two.
    const [twice] = await sql.unsafe(
      `select count(*)::int as n from (select lower(w.email) from watch_holds h join watches w on w.id = h.watch_id group by 1 having count(*) > 1) x`,
    );
    const [mails] = await sql.unsafe(`select count(*)::int as n from mail_outbox where kind = 'watch_hold'`);
    const m = summary(matchMs);
    const o = summary(offerMs);
    const c = summary(changeMs);
    return {
      stores,
      watches: watchCount,
      changes: cancelled.length,
      changesFitted: offerMs.length,
      watchesFitted: fitted,
      match: { p50: m.p50, p95: m.p95, max: m.max },
      refreshPerChangeMs: refreshMs.reduce((a, b) => a + b, 0) / Math.max(refreshMs.length, 1),
      offer: { p50: o.p50, p95: o.p95, max: o.max },
      change: { p50: c.p50, p95: c.p95, max: c.max },
      holds: held.holds,
      storesHeld: held.stores,
      holdMails: mails.n,
      dinersWithTwoOffers: twice.n,
      changesPerSecond: cancelled.length / Math.max(stormMs / 1000, 1e-9),
    };
  } finally {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
