// Server latency and throughput at 50 connections, beside a static file served by the same server.
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

export async function measureLatency({ routes, connections = 50, duration = 20, engines = ['pglite', 'postgres'] }) {
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
        out.push({ engine, name, path, p50: s.p50, p95: s.p95, p99: s.p99, rps: r.requests.average, requests: r.requests.total, errors: r.errors + r.timeouts + (r.non2xx ?? 0) });
      }
    } finally {
      await server?.stop();
      await pg?.stop();
    }
  }
  return out;
}
