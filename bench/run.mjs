// `npm run bench`: every benchmark, written to bench/results.json and bench/RESULTS.md with the
// machine it ran on. `npm run bench -- weight latency` runs some; `--quick` shortens the load runs.
import fs from 'node:fs';
import path from 'node:path';
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';
import { ensureChromium } from '../scripts/chromium.mjs';
import { fmt, machine, root } from './lib.mjs';
import { storeHostMarkdown } from './storehost.mjs';

/** The watches section's budget (bench/watches.mjs measures it). */
const WATCHES_BUDGET = { matchP95Ms: 5, offerP95Ms: 100 };
/** The queue section's budget (bench/queue.mjs): the range shown holds most real waits, and misses by little. */
const QUEUE_BUDGET = { insideRange: 0.7, errorP90Min: 30 };

process.env.ASTRO_TELEMETRY_DISABLED = '1';
process.env.CHROMIUM_PATH = await ensureChromium();
buildIfNeeded();

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const rendering = args.includes('--render');
const wanted = args.filter((a) => !a.startsWith('--'));
// `--render` rewrites RESULTS.md from results.json without measuring anything.
const want = (name) => !rendering && (!wanted.length || wanted.includes(name));
// Page weight is judged on the bytes as the server sends them (Content-Encoding read from the response).
const BUDGET = {
  htmlWire: 14 * 1024,
  cssWire: 20 * 1024,
  jsWire: 80 * 1024,
  p95Ms: 50,
  lighthousePerformance: 98,
  lighthouseAccessibility: 100,
  lighthouseBestPractices: 100,
  lcpMs: 2000,
  cls: 0.05,
  staticCompressedRatio: 0.8,
  bookableNowP95Ms: 10,
  searchP95Ms: 5,
  liveP95Ms: 1000,
  shareOfTerm: 0.5,
  indexBuildMs: 3000,
  indexMB: 100,
};

const resultsFile = path.join(root, 'bench/results.json');
const previous = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : {};
const run = machine();
// Each section remembers the run that measured it: a partial run keeps the other sections' figures,
// and RESULTS.md then says which run each section comes from instead of putting them all under one.
const results = { ...previous, ...(rendering ? {} : { machine: run, runs: { ...previous.runs } }), budget: BUDGET };
/** Written after every section, so that one failing benchmark does not lose the others' figures. */
function save() {
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(root, 'bench/RESULTS.md'), render(results));
}

/** A store page that exists in the demo data, and the first template page. */
const productRoutes = [
  { name: 'home', path: '/home' },
  { name: 'stores (search)', path: '/stores?name=%E7%84%BC%E8%82%89' },
  { name: 'area', path: '/areas/1' },
  { name: 'store detail', path: '/store/1' },
  { name: 'booking-list', path: '/booking-list' },
  { name: 'sign-in', path: '/auth/signin' },
  { name: 'guest booking', path: '/store/1/booking-without' },
  { name: 'terms', path: '/term' },
];
const templateRoutes = [{ name: 'template: dashboard', path: '/dashboard/analytics', template: true }];

if (want('weight')) {
  const { measureWeight } = await import('./weight.mjs');
  console.log('▶ page weight');
  results.weight = await measureWeight({ routes: [...productRoutes, ...templateRoutes], budget: BUDGET });
  results.runs.weight = run;
  save();
}
if (want('static')) {
  const { measureStaticThroughput } = await import('./weight.mjs');
  console.log('▶ static asset throughput, compressed and not (50 connections)');
  results.staticThroughput = await measureStaticThroughput({ duration: quick ? 3 : 10 });
  results.runs.staticThroughput = run;
  save();
}
if (want('latency')) {
  const { measureLatency } = await import('./latency.mjs');
  console.log('▶ server latency (50 connections, then 1)');
  results.latency = await measureLatency({
    duration: quick ? 5 : 20,
    routes: [
      { name: 'static file', path: '/favicon.svg' },
      { name: '/term', path: '/term' },
      { name: '/home', path: '/home' },
      { name: '/store/{id}', path: '/store/1' },
      { name: '/api/stores', path: '/api/stores' },
    ],
    alone: ['/term', '/home'],
  });
  results.runs.latency = run;
  save();
}
if (want('dbscale') && fs.existsSync(path.join(root, 'bench/dbscale.mjs'))) {
  const { measureDbScale } = await import('./dbscale.mjs');
  console.log('▶ database scale');
  results.dbscale = await measureDbScale({ quick });
  results.runs.dbscale = run;
  save();
}
if (want('watches')) {
  const { measureWatches } = await import('./watches.mjs');
  console.log('▶ watches (空席通知): 10,000 watches and a storm of cancellations');
  results.watches = await measureWatches({ quick });
  results.runs.watches = run;
  const w = results.watches;
  console.log(
    `  match p95 ${fmt(w.match.p95, 3)} ms (budget < ${WATCHES_BUDGET.matchP95Ms}: ${w.match.p95 < WATCHES_BUDGET.matchP95Ms ? 'pass' : 'FAIL'}); offer p95 ${fmt(w.offer.p95, 1)} ms per change (budget < ${WATCHES_BUDGET.offerP95Ms}: ${w.offer.p95 < WATCHES_BUDGET.offerP95Ms ? 'pass' : 'FAIL'}); ${w.holds} holds at ${w.storesHeld} stores, ${w.dinersWithTwoOffers} diners with two offers; load average ${run.loadAverage}`,
  );
  save();
}
if (want('queue')) {
  const { measureQueue } = await import('./queue.mjs');
  console.log('▶ queue (順番待ち): the wait estimate against replayed busy days');
  results.queue = measureQueue({ quick });
  results.runs.queue = run;
  const q = results.queue;
  console.log(
    `  error median ${fmt(q.errorMedian, 1)} min, p90 ${fmt(q.errorP90, 1)} min (budget ≤ ${QUEUE_BUDGET.errorP90Min}: ${q.errorP90 <= QUEUE_BUDGET.errorP90Min ? 'pass' : 'FAIL'}); inside the range shown ${fmt(q.insideRange * 100, 0)}% (budget ≥ ${QUEUE_BUDGET.insideRange * 100}%: ${q.insideRange >= QUEUE_BUDGET.insideRange ? 'pass' : 'FAIL'}); load average ${run.loadAverage}`,
  );
  save();
}
if (want('search')) {
  const { measureSearch } = await import('./search.mjs');
  console.log('▶ keyword search at 10,000 stores');
  results.search = await measureSearch({ rounds: quick ? 5 : 20 });
  results.runs.search = run;
  save();
}
/**
 * Every product page a diner opens (DESIGN: CLS < 0.05, performance ≥ 98 on each): the listing,
 * search, an area, a store, its booking form at its first free start, the account screens signed
 * in as the demo diner (README), and the sign-in, sign-up and password pages.
 */
async function productPages(url) {
  const { items } = await (await fetch(`${url}/api/stores?per_page=1`)).json();
  const store = items[0];
  const start = store.next_slots[0].start;
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: 'demo@sugu.jp', password: 'sugu-demo-2026' }),
  });
  const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new Error(`the demo diner could not sign in (${login.status})`);
  const signedIn = { Cookie: cookie };
  const booking = `?${new URLSearchParams({ start, party: '2' })}`;
  return [
    { name: '/home', path: '/home' },
    { name: '/stores?name=', path: `/stores?name=${encodeURIComponent('焼き鳥')}` },
    { name: '/areas/{id}', path: `/areas/${store.area.id}` },
    { name: '/store/{id}', path: `/store/${store.id}` },
    { name: 'guest booking form', path: `/store/${store.id}/booking-without${booking}` },
    { name: 'booking form (signed in)', path: `/store/${store.id}/booking${booking}`, headers: signedIn },
    { name: '/booking-list', path: '/booking-list', headers: signedIn },
    { name: '/account-info', path: '/account-info', headers: signedIn },
    { name: '/favourite', path: '/favourite', headers: signedIn },
    { name: '/auth/signin', path: '/auth/signin' },
    { name: '/auth/signup', path: '/auth/signup' },
    { name: '/auth/forgot-password', path: '/auth/forgot-password' },
  ];
}

if (want('lighthouse')) {
  const { measureLighthouse } = await import('./lighthouse.mjs');
  console.log('▶ Lighthouse (mobile)');
  results.lighthouse = await measureLighthouse({ paths: productPages });
  results.runs.lighthouse = run;
  save();
}
if (want('live') && fs.existsSync(path.join(root, 'bench/live.mjs'))) {
  const live = await import('./live.mjs');
  console.log('▶ live updates');
  results.live = await live.measureLive({ quick });
  results.runs.live = run;
}

if (want('storehost')) {
  const { measureStoreHost } = await import('./storehost.mjs');
  console.log('▶ store host: walk-in to the diner streams, the ledger, its JavaScript, accessibility');
  results.storehost = await measureStoreHost({ quick });
  results.runs.storehost = run;
  save();
  // A missed budget fails the bench (the figures are written first).
  if (!results.storehost.ok) {
    console.error(`store host budgets missed:\n- ${results.storehost.misses.join('\n- ')}`);
    process.exitCode = 1;
  }
}

if (want('memory')) {
  const { measureMemory } = await import('./memory.mjs');
  console.log('▶ memory: RSS after 100 mixed page views and 60 s idle, embedded and PostgreSQL');
  results.memory = await measureMemory({ idle: quick ? 10 : 60 });
  results.runs.memory = run;
  save();
  if (!results.memory.ok) {
    console.error('memory budget missed');
    process.exitCode = 1;
  }
}

if (want('soak')) {
  const { measureSoak } = await import('./soak.mjs');
  console.log('▶ soak: RSS under 50 connections of mixed page views, 2 minutes of warm-up and 10 measured');
  results.soak = await measureSoak(quick ? { minutes: 2, warmupMinutes: 1 } : {});
  results.runs.soak = run;
  save();
  if (!results.soak.ok) {
    console.error('soak budget missed: memory grows under load');
    process.exitCode = 1;
  }
}

if (want('start')) {
  const { measureStart } = await import('./start.mjs');
  console.log('▶ start: first start of a fresh copy, restarts, an instance joining PostgreSQL with 50,000 stores');
  results.start = await measureStart(quick ? { stores: 10_000, bookingsPerTable: 2, restarts: 1 } : {});
  results.runs.start = run;
  save();
  if (!results.start.ok) {
    console.error('start budgets missed');
    process.exitCode = 1;
  }
}

if (want('bookings')) {
  const { measureBookings } = await import('./bookings.mjs');
  console.log('▶ bookings per second: guest and signed-in bookings across two instances on one PostgreSQL');
  results.bookings = await measureBookings(quick ? { seconds: 10, stores: 3_000 } : {});
  results.runs.bookings = run;
  save();
  if (!results.bookings.ok) {
    console.error('bookings budgets missed');
    process.exitCode = 1;
  }
}

if (want('scale-http')) {
  const { measureScaleHttp } = await import('./scalehttp.mjs');
  console.log('▶ scale over HTTP: 50,000 stores and 5.2 million bookings on PostgreSQL, two instances');
  results.scaleHttp = await measureScaleHttp(quick ? { stores: 10_000, bookingsPerTable: 2, duration: 5 } : {});
  results.runs.scaleHttp = run;
  save();
  if (!results.scaleHttp.ok) {
    console.error('scale over HTTP budgets missed');
    process.exitCode = 1;
  }
}

if (want('flood')) {
  const { measureFlood } = await import('./flood.mjs');
  console.log('▶ abuse floods');
  results.flood = await measureFlood(quick ? { streams: 500, bookings: 100, slow: 1000 } : {});
  results.runs.flood = run;
  save();
}

save();
console.log(fs.readFileSync(path.join(root, 'bench/RESULTS.md'), 'utf8'));

/** How a run is described: when, on what, under what load. */
function describe(m) {
  return `${m.date.slice(0, 10)} on ${m.cpus} CPU cores (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; load average ${m.loadAverage} when the run began`;
}

function render(r) {
  const m = r.machine;
  /** A section measured by another run than the header's says so under its heading. */
  const from = (section) => {
    if (!r.runs) return []; // results from before runs were recorded per section
    const by = r.runs[section];
    if (by?.date === m.date) return [];
    return ['', by ? `From an earlier run: measured ${describe(by)}.` : 'From an earlier run (its machine and date were not recorded).'];
  };
  const kb = (b) => fmt(b / 1024, 1);
  const lines = ['# Benchmark results', '', `Latest run measured ${describe(m)}. Regenerate with \`npm run bench\`.`, ''];
  if (r.weight) {
    lines.push(
      '## Page weight (as a phone loads it; bytes as the server sends them)',
      ...from('weight'),
      '',
      `Every document, stylesheet and script a page loads, fetched with \`Accept-Encoding: br, gzip\`: raw size and the bytes that came over the wire, with the \`Content-Encoding\` the server named. Budget for product pages, on the wire: HTML ≤ ${BUDGET.htmlWire / 1024} KB, CSS ≤ ${BUDGET.cssWire / 1024} KB, JS ≤ ${BUDGET.jsWire / 1024} KB.`,
      '',
      '| page | HTML raw / wire KB | CSS raw / wire KB | JS raw / wire KB | Content-Encoding | within budget |',
      '|---|---|---|---|---|---|',
    );
    for (const w of r.weight) {
      if (w.htmlWire === undefined) continue; // figures of an older format
      lines.push(
        `| ${w.name} \`${w.path}\`${w.status === 200 ? '' : ` (HTTP ${w.status})`} | ${kb(w.htmlRaw)} / ${kb(w.htmlWire)} | ${kb(w.cssRaw)} / ${kb(w.cssWire)} | ${kb(w.jsRaw)} / ${kb(w.jsWire)} | ${w.encodings.join(', ')} | ${w.template ? '— (template)' : w.withinBudget ? 'yes' : '**no**'} |`,
      );
    }
    lines.push('');
  }
  if (r.staticThroughput) {
    const t = r.staticThroughput;
    lines.push(
      `## Static asset throughput (${t.connections} connections, ${t.rounds} alternating rounds of ${t.duration} s)`,
      ...from('staticThroughput'),
      '',
      `The product stylesheet as it is and as its precompressed brotli copy (written at build time, sent from memory). Budget: compressed ≥ ${BUDGET.staticCompressedRatio * 100}% of the uncompressed requests/s. The load generator runs on the same cores, so the server's own CPU time per request is given too: on a shared machine it is the steadier figure.`,
      '',
      '| sent as | bytes | req/s | MB/s | server CPU µs / request | errors | req/s ÷ identity |',
      '|---|---|---|---|---|---|---|',
      ...t.rows.map(
        (x) =>
          `| ${x.name} | ${x.bytes} | ${fmt(x.rps, 0)} | ${fmt(x.bytesPerSecond / 2 ** 20, 1)} | ${fmt(x.cpuUsPerRequest, 0)} | ${x.errors} | ${fmt(x.ratio, 2)} |`,
      ),
      '',
    );
  }
  if (r.latency) {
    lines.push(
      '## Server latency at 50 connections',
      ...from('latency'),
      '',
      `Budget: /home, /api/stores and /store/{id} at ≥ ${BUDGET.shareOfTerm * 100}% of /term's requests/s; /home p95 < ${BUDGET.p95Ms} ms at one connection (below). /term (a Markdown page) and the static file are served by the same server in the same run; the ratios to them are the figures that carry across machines. Requests carry a phone's headers (Accept-Encoding with br, Accept-Language ja), so every page is compressed as it goes out, as diners get it.`,
      '',
      '| engine | route | p50 ms | p95 ms | p99 ms | req/s | share of /term req/s | errors | p95 ÷ static p95 |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    const loaded = r.latency.filter((l) => l.connections !== 1);
    for (const l of loaded) {
      const base = loaded.find((x) => x.engine === l.engine && x.name === 'static file');
      const term = loaded.find((x) => x.engine === l.engine && x.name === '/term');
      const share = term && l.name !== 'static file' ? `${fmt((100 * l.rps) / Math.max(term.rps, 1), 0)}%` : '—';
      lines.push(
        `| ${l.engine} | ${l.name} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.p99)} | ${fmt(l.rps, 0)} | ${share} | ${l.errors} | ${base ? fmt(l.p95 / Math.max(base.p95, 1), 1) : '—'} |`,
      );
    }
    const alone = r.latency.filter((l) => l.connections === 1);
    if (alone.length) {
      lines.push(
        '',
        `At one connection, one request at a time: the latency a diner sees from a server that is not saturated. At 50 connections each request waits behind the others (Little's law: 50 in flight at 700 requests/s is 70 ms on average, even for /term), so the p95 budget is read here, on an idle machine.`,
        '',
        '| engine | route | p50 ms | p95 ms | p99 ms | req/s | errors |',
        '|---|---|---|---|---|---|---|',
        ...alone.map((l) => `| ${l.engine} | ${l.name} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${fmt(l.p99)} | ${fmt(l.rps, 0)} | ${l.errors} |`),
      );
    }
    lines.push('');
  }
  if (r.dbscale?.builds) {
    const d = r.dbscale;
    lines.push(
      '## Database scale',
      ...from('dbscale'),
      '',
      `Generated stores with ${d.tablesPerStore} tables each and ${d.bookingsPerTable} bookings per table. Budgets: bookable-now p95 < ${BUDGET.bookableNowP95Ms} ms at 10,000 stores, nearly flat to 50,000; availability index build at 10,000 stores < ${BUDGET.indexBuildMs / 1000} s and < ${BUDGET.indexMB} MB.`,
      '',
      '| engine | stores | bookings | index build ms | index held MB (bit rows MB) |',
      '|---|---|---|---|---|',
    );
    for (const b of d.builds) lines.push(`| ${b.engine} | ${b.stores} | ${b.bookings} | ${fmt(b.buildMs, 0)} | ${fmt(b.heldMB)} (${fmt(b.bitsMB)}) |`);
    lines.push('', '| engine | stores | operation | p50 ms | p95 ms | runs |', '|---|---|---|---|---|---|');
    for (const x of d.rows) lines.push(`| ${x.engine} | ${x.stores} | ${x.operation} | ${fmt(x.p50, 2)} | ${fmt(x.p95, 2)} | ${x.n} |`);
    lines.push('');
  } else if (r.dbscale) {
    lines.push(
      '## Database scale',
      ...from('dbscale'),
      '',
      `${r.dbscale.stores} stores, ${r.dbscale.tables} tables, ${r.dbscale.bookings} bookings (generated). Budget: bookable-now p95 < ${BUDGET.bookableNowP95Ms} ms.`,
      '',
      '| engine | operation | p50 ms | p95 ms | runs |',
      '|---|---|---|---|---|',
    );
    for (const d of r.dbscale.rows) lines.push(`| ${d.engine} | ${d.operation} | ${fmt(d.p50, 2)} | ${fmt(d.p95, 2)} | ${d.n} |`);
    lines.push('');
  }
  if (r.watches?.offer) {
    const w = r.watches;
    const ok = (v, budget) => (v <= budget ? 'within budget' : 'over budget');
    lines.push(
      '## Watches (空席通知)',
      ...from('watches'),
      '',
      `${w.watches.toLocaleString('en')} active watches (half on one store, half on an area's search, parties 2–4, windows of 1–3 hours) over ${w.stores.toLocaleString('en')} stores in 20 areas, and a storm of ${w.changes} cancellations, each freeing one table in a store that was full. Per change, as a server handles it: the store re-read by the availability index, the matcher looking only at the store's own watches and its area's, then the offer: each freed start held for the first watcher (in the order they asked, one open offer per diner), its mail and push queued in the same transaction. The offer's figures are over the changes some watch fits (each freed table frees a run of starts, each offered in a transaction of its own). Budget: match p95 < ${WATCHES_BUDGET.matchP95Ms} ms (${ok(w.match.p95, WATCHES_BUDGET.matchP95Ms)}); offer p95 < ${WATCHES_BUDGET.offerP95Ms} ms per change (${ok(w.offer.p95, WATCHES_BUDGET.offerP95Ms)}).`,
      '',
      '| changes (with a fitting watch) | watches fitted | match p50 ms | match p95 ms | match max ms | index re-read per change ms | offer p50 ms | offer p95 ms | offer max ms | change to hold p95 ms | holds made (stores) | hold mails | diners with two offers | changes / s |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      `| ${w.changes} (${w.changesFitted}) | ${w.watchesFitted} | ${fmt(w.match.p50, 3)} | ${fmt(w.match.p95, 3)} | ${fmt(w.match.max, 2)} | ${fmt(w.refreshPerChangeMs, 2)} | ${fmt(w.offer.p50, 1)} | ${fmt(w.offer.p95, 1)} | ${fmt(w.offer.max, 1)} | ${fmt(w.change.p95, 1)} | ${w.holds} (${w.storesHeld}) | ${w.holdMails} | ${w.dinersWithTwoOffers} | ${fmt(w.changesPerSecond, 0)} |`,
      '',
    );
  }
  if (r.queue) {
    const q = r.queue;
    const ok = (pass) => (pass ? 'within budget' : 'over budget');
    lines.push(
      '## Queue wait estimate (順番待ち)',
      ...from('queue'),
      '',
      `${q.days} generated busy days of one store (${q.tables} tables, one walk-in only; open 11:00–23:00; a lunch and a dinner rush) replayed minute by minute (bench/queue.mjs): ${q.bookings} bookings (${q.noShows} no-shows, released after 15 minutes), ${q.joined} walk-in parties joining the queue (${q.left} gave up and left), stays running short or long around the turn times. The store seats its queue in order at the smallest free table that fits without running into a booking; each party is shown the estimate the page shows (the real estimateWait, from what the store knew then), and its real wait is compared with the middle of that range. The page shows that range (「待ち時間の目安：約{min}〜{max}分」), never one minute. Budget: p90 error ≤ ${QUEUE_BUDGET.errorP90Min} min (${ok(q.errorP90 <= QUEUE_BUDGET.errorP90Min)}); real wait inside the range shown ≥ ${QUEUE_BUDGET.insideRange * 100}% (${ok(q.insideRange >= QUEUE_BUDGET.insideRange)}).`,
      '',
      '| parties seated (with an estimate) | wait median min | wait p90 min | error median min | error p90 min | inside the range shown | range width median min |',
      '|---|---|---|---|---|---|---|',
      `| ${q.seated} (${q.seated - q.noEstimate}) | ${fmt(q.waitMedian, 0)} | ${fmt(q.waitP90, 0)} | ${fmt(q.errorMedian, 1)} | ${fmt(q.errorP90, 1)} | ${fmt(q.insideRange * 100, 0)}% | ${fmt(q.rangeWidthMedian, 0)} |`,
      '',
    );
  }
  if (r.search) {
    const q = r.search;
    lines.push(
      '## Keyword search (Japanese-aware, in memory)',
      ...from('search'),
      '',
      `${q.stores.toLocaleString('en')} stores on PGlite named, read and tagged as the demo seed's; the queries ${q.queries.map((x) => `\`${x}\``).join(', ')} in turn (kanji variants, kana, half- and full-width, romaji, two words, and two romaji typos, which take the slow path). The first keyword search after start builds the index and every store's folded text: ${q.firstMs} ms. Budget: search p95 < ${BUDGET.searchP95Ms} ms.`,
      '',
      '| operation | p50 ms | p95 ms | max ms | runs |',
      '|---|---|---|---|---|',
      ...q.rows.map((d) => `| ${d.operation} | ${fmt(d.p50, 2)} | ${fmt(d.p95, 2)} | ${fmt(d.max, 2)} | ${d.n} |`),
      '',
    );
  }
  if (r.lighthouse) {
    lines.push(
      '## Lighthouse (mobile, simulated slow 4G, system Chromium; the server as `npm start` runs it)',
      ...from('lighthouse'),
      '',
      `Budget: performance ≥ ${BUDGET.lighthousePerformance}, accessibility ${BUDGET.lighthouseAccessibility}, best practices ${BUDGET.lighthouseBestPractices}, LCP < ${BUDGET.lcpMs} ms, CLS < ${BUDGET.cls}.`,
      '',
      '| page | performance | accessibility | best practices | FCP ms | LCP ms | CLS | TBT ms | transferred KiB | render-blocking ms | insights with savings |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const l of r.lighthouse)
      lines.push(
        `| ${l.name} | ${l.performance ?? '—'} | ${l.accessibility ?? '—'} | ${l.bestPractices ?? '—'} | ${l.fcpMs ?? '—'} | ${l.lcpMs ?? '—'} | ${l.cls ?? '—'} | ${l.tbtMs ?? '—'} | ${l.transferKiB ?? '—'} | ${l.renderBlockingMs ?? '—'} | ${l.insights?.join(', ') || '—'} |${l.runtimeError ? ` (${l.runtimeError})` : ''}`,
      );
    lines.push('');
  }
  if (r.live) {
    lines.push('## Live updates', ...from('live'), '', ...(r.live.markdown ?? [JSON.stringify(r.live)]), '');
  }
  if (r.storehost?.walkIn) {
    lines.push('## Store host (the tablet at the door)', ...from('storehost'), '', ...storeHostMarkdown(r.storehost), '');
  }
  if (r.memory) {
    lines.push('## Memory (resident, after warm-up)', ...from('memory'), '', ...r.memory.markdown, '');
  }
  if (r.soak) {
    lines.push('## Soak (memory under steady load)', ...from('soak'), '', ...r.soak.markdown, '');
  }
  if (r.start) {
    lines.push('## Start (to "Sugu is ready at")', ...from('start'), '', ...r.start.markdown, '');
  }
  if (r.bookings) {
    lines.push('## Bookings per second (two instances, one PostgreSQL)', ...from('bookings'), '', ...r.bookings.markdown, '');
  }
  if (r.scaleHttp) {
    lines.push('## Scale over HTTP (two instances on PostgreSQL)', ...from('scaleHttp'), '', ...r.scaleHttp.markdown, '');
  }
  if (r.flood) {
    lines.push('## Abuse floods (docs/production.md §7)', ...from('flood'), '', ...(r.flood.markdown ?? [JSON.stringify(r.flood)]), '');
  }
  return lines.join('\n');
}
