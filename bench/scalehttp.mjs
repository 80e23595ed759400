// Scale over HTTP (#32, item 3): the page path at 50,000 generated stores and 5.2 million bookings
// on PostgreSQL, two instances. Each route is loaded at 50 connections split between the two
// instances (25 each, at once), beside /term (a Markdown page served by the same servers in the
// same run); then /home at one connection. The ratios to /term carry across machines.
//
//   node bench/scalehttp.mjs [--stores 50000] [--bookings-per-table 13] [--duration 10] [--url postgres://…]
//
// With --url the stores already in that database are used as they are (nothing is generated), so
// that two builds of the app can be compared on the very same data.
import os from 'node:os';
import autocannon from 'autocannon';
import { BROWSER_HEADERS } from './latency.mjs';
import { startPostgres, startServer, summary } from './lib.mjs';
import { rssOfTree } from './memory.mjs';

/** The budgets (#32). */
export const SCALE_HTTP_BUDGET = { shareOfTerm: 0.5, homeAloneP95Ms: 50 };

function load(url, { connections, duration }) {
  return new Promise((resolve, reject) => {
    const times = [];
    const instance = autocannon({ url, connections, duration, timeout: 10, headers: BROWSER_HEADERS }, (err, r) => (err ? reject(err) : resolve({ r, times })));
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

/** `connections` split over the servers, at once; requests/s summed, latencies merged. */
async function loadAll(servers, path, { connections, duration }) {
  const each = await Promise.all(servers.map((s) => load(s.url + path, { connections: Math.max(1, Math.round(connections / servers.length)), duration })));
  const s = summary(each.flatMap((e) => e.times));
  return {
    rps: each.reduce((a, e) => a + e.r.requests.average, 0),
    p50: s.p50,
    p95: s.p95,
    errors: each.reduce((a, e) => a + e.r.errors + e.r.timeouts + (e.r.non2xx ?? 0), 0),
  };
}

export async function measureScaleHttp({ stores = 50_000, bookingsPerTable = 13, duration = 10, databaseUrl } = {}) {
  const pg = databaseUrl ? null : await startPostgres();
  const servers = [];
  try {
    const url = databaseUrl ?? (await pg.createDatabase('sugu_scale_http'));
    if (!pg) {
      const { register } = await import('tsx/esm/api');
      register();
    }
    const { openAndPrepare } = await import('../src/server/db/startup.ts');
    const { generate } = await import('./dbscale.mjs');
    const handle = await openAndPrepare({ databaseUrl: url, seed: false });
    let counts;
    let ids;
    try {
      const t0 = performance.now();
      if (pg) {
        await generate(handle.sql, stores, bookingsPerTable);
        console.log(`scale-http: generated in ${Math.round((performance.now() - t0) / 1000)} s`);
      }
      [counts] = await handle.sql`select (select count(*)::int from stores) s, (select count(*)::int from bookings) b`;
      // An area page and a store open around the clock (the listing is never empty at any hour).
      [ids] =
        await handle.sql`select (select min(id)::int from areas) area, (select min(store_id)::int from store_hours where opens_min = 0 and closes_min = 1440) store`;
    } finally {
      await handle.close();
    }
    servers.push(await startServer({ databaseUrl: url }));
    servers.push(await startServer({ databaseUrl: url }));
    const routes = [
      { name: '/term', path: '/term' },
      { name: '/home', path: '/home' },
      { name: '/home?party=4', path: '/home?party=4' },
      { name: '/areas/{id}', path: `/areas/${ids.area}` },
      { name: '/store/{id}', path: `/store/${ids.store}` },
      { name: '/api/stores', path: '/api/stores' },
    ];
    const rows = [];
    for (const route of routes) {
      await loadAll(servers, route.path, { connections: 4, duration: 2 }); // warm-up
      const loadAverage = Number(os.loadavg()[0].toFixed(1));
      rows.push({ ...route, connections: 50, loadAverage, ...(await loadAll(servers, route.path, { connections: 50, duration })) });
      console.log(`scale-http: ${route.name} ${Math.round(rows.at(-1).rps)} req/s (load ${loadAverage})`);
    }
    const term = rows.find((r) => r.name === '/term');
    for (const r of rows) {
      r.shareOfTerm = r.rps / Math.max(term.rps, 1);
      r.pass = r.name === '/term' || r.name === '/api/stores' || r.name === '/home?party=4' ? undefined : r.shareOfTerm >= SCALE_HTTP_BUDGET.shareOfTerm;
    }
    const aloneLoad = Number(os.loadavg()[0].toFixed(1));
    const alone = await loadAll([servers[0]], '/home', { connections: 1, duration });
    const rss = servers.map((s) => rssOfTree(s.child.pid).reduce((a, p) => a + p.rssMiB, 0));
    const out = {
      stores: counts.s,
      bookings: counts.b,
      duration,
      rows,
      alone: { ...alone, loadAverage: aloneLoad, pass: alone.p95 < SCALE_HTTP_BUDGET.homeAloneP95Ms },
      rssMiB: rss,
      budget: SCALE_HTTP_BUDGET,
    };
    out.ok = rows.every((r) => r.pass !== false) && out.alone.pass;
    out.markdown = scaleHttpMarkdown(out);
    return out;
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    await pg?.stop();
  }
}

export function scaleHttpMarkdown(r) {
  const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
  return [
    `${r.stores.toLocaleString('en')} generated stores (8 tables each) and ${r.bookings.toLocaleString('en')} bookings on PostgreSQL 15, two instances; each route loaded for ${r.duration} s at 50 connections split between them (25 each, at once), with a phone's headers (Accept-Encoding br, Accept-Language ja). Budget: /home, an area page and a store page at ≥ ${r.budget.shareOfTerm * 100}% of /term's requests/s; /home p95 < ${r.budget.homeAloneP95Ms} ms at one connection. Load average (1 min, 2 cores) beside each figure.`,
    '',
    '| route | req/s (both instances) | share of /term | p50 ms | p95 ms | errors | load average | within budget |',
    '|---|---|---|---|---|---|---|---|',
    ...r.rows.map(
      (x) =>
        `| ${x.name} | ${f(x.rps, 0)} | ${f(100 * x.shareOfTerm, 0)}% | ${f(x.p50)} | ${f(x.p95)} | ${x.errors} | ${x.loadAverage} | ${x.pass === undefined ? '—' : x.pass ? 'yes' : '**no**'} |`,
    ),
    '',
    `/home at one connection: p50 ${f(r.alone.p50)} ms, p95 **${f(r.alone.p95)} ms** (${f(r.alone.rps, 0)} req/s; load average ${r.alone.loadAverage}) — ${r.alone.pass ? 'within budget' : '**over budget**'}. Instances' RSS after the run: ${r.rssMiB.map((x) => f(x, 0)).join(' / ')} MiB.`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const at = process.argv.indexOf('--url');
  const databaseUrl = at > 0 ? process.argv[at + 1] : undefined;
  const r = await measureScaleHttp({
    stores: arg('stores', 50_000),
    bookingsPerTable: arg('bookings-per-table', 13),
    duration: arg('duration', 10),
    databaseUrl,
  });
  console.log(JSON.stringify(r.rows, null, 2));
  console.log(r.markdown.join('\n'));
}
