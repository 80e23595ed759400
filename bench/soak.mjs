// Soak: does the server's memory grow under steady load? The built server on the embedded database
// (its PGlite worker included) takes the mixed page views of the memory section from 50 connections
// for a warm-up and then ten minutes; its RSS is read every 5 s, and its slope over the ten minutes
// is the figure.
//
//   node bench/soak.mjs [--minutes 10] [--warmup 2] [--connections 50]
import autocannon from 'autocannon';
import { BROWSER_HEADERS } from './latency.mjs';
import { startServer } from './lib.mjs';
import { mixedViews, rssOfTree } from './memory.mjs';

/**
 * The "no growth", as a number: after the warm-up, RSS may rise by at most 1 MiB a minute
 * (10 MiB over the soak). A leak of one small object per request at ~300 requests/s is far above it
 * (a 100-byte leak is ~1.7 MiB a minute); the garbage collector's saw-tooth is below it. The
 * warm-up is not counted: in it the heap and PGlite's buffers grow in steps to their working size
 * (measured: flat from the second minute on).
 */
export const SOAK_BUDGET = { slopeMiBPerMinute: 1 };

/** Least-squares slope of y over x. */
export function slope(points) {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}

/** RSS of the server and of its PGlite worker (a process of its own), MiB. */
function reading(pid) {
  const rows = rssOfTree(pid);
  const of = (what) => rows.filter((r) => r.what === what).reduce((a, r) => a + r.rssMiB, 0);
  return { total: rows.reduce((a, r) => a + r.rssMiB, 0), server: of('server'), worker: of('PGlite worker') };
}

export async function measureSoak({ minutes = 10, warmupMinutes = 2, connections = 50 } = {}) {
  const server = await startServer();
  const pid = server.child.pid;
  const samples = [];
  const started = Date.now();
  const sample = () => {
    const r = reading(pid);
    samples.push({ x: (Date.now() - started) / 60_000, y: r.total, server: r.server, worker: r.worker });
  };
  try {
    sample();
    const timer = setInterval(sample, 5_000);
    const requests = mixedViews(100).map((path) => ({ method: 'GET', path }));
    const r = await new Promise((resolve, reject) =>
      autocannon({ url: server.url, connections, duration: (warmupMinutes + minutes) * 60, timeout: 10, headers: BROWSER_HEADERS, requests }, (err, res) =>
        err ? reject(err) : resolve(res),
      ),
    );
    clearInterval(timer);
    sample();
    const steady = samples.filter((s) => s.x >= warmupMinutes);
    const perMinute = slope(steady);
    const serverPerMinute = slope(steady.map((p) => ({ x: p.x, y: p.server })));
    const workerPerMinute = slope(steady.map((p) => ({ x: p.x, y: p.worker })));
    const ys = steady.map((s) => s.y);
    const result = {
      minutes,
      warmupMinutes,
      connections,
      requests: r.requests.total,
      requestsPerSecond: r.requests.average,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
      atStartMiB: samples[0].y,
      steadyMinMiB: Math.min(...ys),
      steadyMaxMiB: Math.max(...ys),
      atEndMiB: samples.at(-1).y,
      slopeMiBPerMinute: perMinute,
      serverSlopeMiBPerMinute: serverPerMinute,
      workerSlopeMiBPerMinute: workerPerMinute,
      // Kept every 30 s (minutes, total, server, worker MiB): enough to see the curve in results.json.
      samples: samples
        .filter((_, i) => i % 6 === 0 || i === samples.length - 1)
        .map((s) => [Number(s.x.toFixed(2)), Number(s.y.toFixed(1)), Number(s.server.toFixed(1)), Number(s.worker.toFixed(1))]),
      budget: SOAK_BUDGET,
    };
    // Errors (timeouts past 10 s) are reported beside it: on a shared machine they follow its load.
    result.ok = perMinute <= SOAK_BUDGET.slopeMiBPerMinute;
    const f = (x) => x.toFixed(0);
    result.markdown = [
      `The built server on the embedded database (RSS of the server and its PGlite worker) under ${connections} connections of the memory section's mixed page views for ${warmupMinutes} minutes of warm-up and then ${minutes} minutes, RSS read every 5 s. The slope is a least-squares fit over the ${minutes} minutes after the warm-up (in it the heap and PGlite's buffers grow in steps to their working size). Budget: ≤ ${SOAK_BUDGET.slopeMiBPerMinute} MiB a minute. Errors are requests that had no answer within 10 s; the load average of the run is in its heading.`,
      '',
      '| requests | requests/s | non-2xx | errors | RSS at start MiB | steady min–max MiB | at end MiB | slope MiB/min (server, PGlite worker) | within budget |',
      '|---|---|---|---|---|---|---|---|---|',
      `| ${result.requests} | ${f(result.requestsPerSecond)} | ${result.non2xx} | ${result.errors} | ${f(result.atStartMiB)} | ${f(result.steadyMinMiB)}–${f(result.steadyMaxMiB)} | ${f(result.atEndMiB)} | **${perMinute.toFixed(2)}** (${serverPerMinute.toFixed(2)}, ${workerPerMinute.toFixed(2)}) | ${result.ok ? 'yes' : '**no**'} |`,
    ];
    return result;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const r = await measureSoak({ minutes: arg('minutes', 10), warmupMinutes: arg('warmup', 2), connections: arg('connections', 50) });
  console.log(r.markdown.join('\n'));
}
