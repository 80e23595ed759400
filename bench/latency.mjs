// Server latency and throughput at 50 connections, beside a static file served by the same server,
// and the latency of /home and /term at one connection.
import autocannon from 'autocannon';
import { startPostgres, startServer, summary } from './lib.mjs';

/** What a diner's phone sends: it accepts compressed answers (so each page is compressed as it goes out) and reads Japanese. */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd', 'accept-language': 'ja,en-US;q=0.9' };

function run(url, { connections, duration }) {
  return new Promise((resolve, reject) => {
    const times = [];
    const instance = autocannon({ url, connections, duration, timeout: 10, headers: BROWSER_HEADERS }, (err, r) => (err ? reject(err) : resolve({ r, times })));
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

/**
 * Each route at `connections`, then the routes named in `alone` at one connection: the latency a
 * diner sees when the server is not saturated. At 50 connections every request waits behind the
 * others (Little's law: 50 in flight at ~700 requests/s is ~70 ms on average even for /term), so
 * a p95 budget in milliseconds can only be met, and meant, at low concurrency.
 */
export async function measureLatency({ routes, connections = 50, duration = 20, engines = ['pglite', 'postgres'], alone = [] }) {
  const out = [];
  for (const engine of engines) {
    let pg;
    let server;
    try {
      if (engine === 'postgres') {
        pg = await startPostgres();
        server = await startServer({ databaseUrl: await pg.createDatabase('bench') });
      } else server = await startServer();
      const paths = typeof routes === 'function' ? await routes(server.url) : routes;
      for (const { name, path } of paths) {
        await run(server.url + path, { connections: 5, duration: 2 }); // warm-up
        const { r, times } = await run(server.url + path, { connections, duration });
        const s = summary(times);
        out.push({
          engine,
          name,
          path,
          connections,
          p50: s.p50,
          p95: s.p95,
          p99: s.p99,
          rps: r.requests.average,
          requests: r.requests.total,
          errors: r.errors + r.timeouts + (r.non2xx ?? 0),
        });
      }
      for (const { name, path } of paths.filter((p) => alone.includes(p.name))) {
        const { r, times } = await run(server.url + path, { connections: 1, duration });
        const s = summary(times);
        out.push({
          engine,
          name,
          path,
          connections: 1,
          p50: s.p50,
          p95: s.p95,
          p99: s.p99,
          rps: r.requests.average,
          requests: r.requests.total,
          errors: r.errors + r.timeouts + (r.non2xx ?? 0),
        });
      }
    } finally {
      await server?.stop();
      await pg?.stop();
    }
  }
  return out;
}
