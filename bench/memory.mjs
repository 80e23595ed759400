// Memory benchmark: the resident memory (RSS) of the built server with its children (PGlite's worker
// is a process of its own) after a warm-up of 100 mixed page views and 60 s idle, on the embedded
// database and on PostgreSQL, at the demo data.
//
//   node bench/memory.mjs [--idle 60] [--views 100] [--engine pglite|postgres]
import fs from 'node:fs';
import http from 'node:http';
import { startPostgres, startServer } from './lib.mjs';

/** The issue's budgets (#32): MiB of RSS after the warm-up, the server with its children. */
export const MEMORY_BUDGET = { pgliteMiB: 350, postgresMiB: 200 };

/** A process and its children. */
export function processTree(pid) {
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  return [pid, ...children.flatMap(processTree)];
}

/** RSS of each process of the tree, in MiB, with what it runs. */
export function rssOfTree(pid) {
  return processTree(pid).map((p) => {
    const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
    const kib = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0);
    // Proportional: pages shared with the other process (node's own code) counted once between them.
    const pss = Number(fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
    const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return {
      pid: p,
      what: cmd.some((a) => a.includes('pglite-worker')) ? 'PGlite worker' : 'server',
      rssMiB: kib('VmRSS') / 1024,
      anonMiB: kib('RssAnon') / 1024,
      fileMiB: kib('RssFile') / 1024,
      pssMiB: pss / 1024,
    };
  });
}

const sum = (rows) => rows.reduce((a, r) => a + r.rssMiB, 0);

function get(url, path) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = http.request({ host: hostname, port, path, headers: { 'accept-encoding': 'br, gzip', 'accept-language': 'ja' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/**
 * 100 page views a diner's browsing makes: the listing (with and without a party), area pages,
 * store pages and their booking forms across the demo stores, a keyword search, the JSON listing.
 */
export function mixedViews(n = 100) {
  const kinds = [
    () => '/home',
    (i) => `/home?party=${1 + (i % 6)}`,
    (i) => `/areas/${1 + (i % 10)}`,
    (i) => `/store/${1 + ((i * 37) % 300)}`,
    (i) => `/store/${1 + ((i * 53) % 300)}/booking-without?party=2`,
    (i) => `/stores?name=${encodeURIComponent(['焼肉', 'ラーメン', 'sushi', '居酒屋', 'カフェ'][i % 5])}`,
    () => '/api/stores',
    () => '/term',
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length](i));
}

/** What the figure after idle includes. */
const NOTE = `The server gives its heap's emptied pages back once no request has begun or been in flight for 10 s (live streams aside) (src/server/idleTrim.ts: V8 otherwise keeps them pooled, 115–126 MB of heap pages for 40–50 MB of live objects on PostgreSQL), so the figure after idle is after that; the peak is what the views took.`;

/** Runs the warm-up against a started server and reads its memory after the idle time. */
async function measureOne(engine, { idle, views, databaseUrl }) {
  const server = await startServer({ databaseUrl });
  try {
    const pid = server.child.pid;
    const atReady = rssOfTree(pid);
    const statuses = {};
    let peak = 0;
    const paths = mixedViews(views);
    // Four at a time, as a few diners at once.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < paths.length) {
          const p = paths[next++];
          const status = await get(server.url, p);
          statuses[status] = (statuses[status] ?? 0) + 1;
          peak = Math.max(peak, sum(rssOfTree(pid)));
        }
      }),
    );
    const afterViews = rssOfTree(pid);
    await new Promise((r) => setTimeout(r, idle * 1000));
    const afterIdle = rssOfTree(pid);
    const budget = engine === 'pglite' ? MEMORY_BUDGET.pgliteMiB : MEMORY_BUDGET.postgresMiB;
    const total = sum(afterIdle);
    return {
      engine,
      views,
      idleSeconds: idle,
      statuses,
      atReadyMiB: sum(atReady),
      peakMiB: peak,
      afterViewsMiB: sum(afterViews),
      afterIdleMiB: total,
      afterIdlePssMiB: afterIdle.reduce((a, r) => a + r.pssMiB, 0),
      processes: afterIdle,
      budgetMiB: budget,
      pass: total <= budget,
    };
  } finally {
    await server.stop();
  }
}

export async function measureMemory({ idle = 60, views = 100, engines = ['pglite', 'postgres'] } = {}) {
  const rows = [];
  for (const engine of engines) {
    if (engine === 'postgres') {
      const pg = await startPostgres();
      try {
        rows.push(await measureOne(engine, { idle, views, databaseUrl: await pg.createDatabase('sugu_memory') }));
      } finally {
        await pg.stop();
      }
    } else {
      rows.push(await measureOne(engine, { idle, views }));
    }
  }
  const f = (x) => x.toFixed(0);
  const markdown = [
    `RSS of the server with its children (PGlite's worker is a process of its own) as the machine pays for it, after ${views} mixed page views (listing with and without a party, area pages, store pages, guest booking forms, keyword searches, /api/stores, /term; 4 at a time, Accept-Encoding br) and then ${idle} s idle, on the demo data. Budget: ≤ ${MEMORY_BUDGET.pgliteMiB} MiB on the embedded database including it, ≤ ${MEMORY_BUDGET.postgresMiB} MiB per instance on PostgreSQL (the PostgreSQL server itself not counted).`,
    '',
    NOTE,
    '',
    '| engine | at ready MiB | peak during views MiB | after views MiB | after idle MiB (per process) | after idle, shared pages once (PSS) MiB | budget MiB | within budget |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${f(r.atReadyMiB)} | ${f(r.peakMiB)} | ${f(r.afterViewsMiB)} | **${f(r.afterIdleMiB)}** (${r.processes.map((p) => `${p.what} ${f(p.rssMiB)}`).join(', ')}) | ${f(r.afterIdlePssMiB)} | ${r.budgetMiB} | ${r.pass ? 'yes' : '**no**'} |`,
    ),
  ];
  return { rows, ok: rows.every((r) => r.pass), markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const engine = arg('engine');
  const result = await measureMemory({ idle: Number(arg('idle', 60)), views: Number(arg('views', 100)), engines: engine ? [engine] : undefined });
  console.log(JSON.stringify(result.rows, null, 2));
  console.log(result.markdown.join('\n'));
}
