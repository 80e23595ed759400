// Page weight per route as a phone loads it, in bytes as the server sends them: the browser finds
// what a page loads (document, stylesheets, scripts, lazy chunks included), then each of those is
// fetched again with a browser's `Accept-Encoding: br, gzip`, and the figures are what came over
// the wire and the `Content-Encoding` the response named (never a size computed here).
// Also: throughput of one static asset, compressed and not, from the same server.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from './lib.mjs';

export const ACCEPT_ENCODING = 'br, gzip';

/** One GET: status, Content-Encoding, bytes on the wire and decoded. */
export function fetchAsSent(url, acceptEncoding = ACCEPT_ENCODING) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding }, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const wire = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'] ?? 'identity';
          const decoded = encoding === 'br' ? zlib.brotliDecompressSync(wire) : encoding === 'gzip' ? zlib.gunzipSync(wire) : wire;
          resolve({ status: res.statusCode, encoding, wire: wire.length, raw: decoded.length });
        });
      })
      .on('error', reject);
  });
}

const KINDS = { document: 'html', stylesheet: 'css', script: 'js' };

export async function measureWeight({ routes, budget }) {
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const results = [];
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 915 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
    for (const { name, path, template = false } of routes) {
      const page = await context.newPage();
      const loaded = new Map();
      page.on('response', (res) => {
        const kind = KINDS[res.request().resourceType()];
        if (kind && res.url().startsWith(server.url)) loaded.set(res.url(), kind);
      });
      const response = await page.goto(server.url + path, { waitUntil: 'networkidle' });
      const row = { name, path, status: response?.status() ?? 0, template, files: [] };
      for (const kind of Object.values(KINDS)) Object.assign(row, { [`${kind}Raw`]: 0, [`${kind}Wire`]: 0 });
      for (const [url, kind] of loaded) {
        const sent = await fetchAsSent(url);
        row[`${kind}Raw`] += sent.raw;
        row[`${kind}Wire`] += sent.wire;
        row.files.push({ kind, path: new URL(url).pathname, encoding: sent.encoding, raw: sent.raw, wire: sent.wire });
      }
      row.encodings = [...new Set(row.files.map((f) => f.encoding))];
      row.withinBudget = row.status === 200 && row.htmlWire <= budget.htmlWire && row.cssWire <= budget.cssWire && row.jsWire <= budget.jsWire;
      results.push(row);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return results;
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100;

/**
 * Requests/s at `connections` keep-alive connections, and the server's own CPU time per request
 * (steadier on a shared machine). Node's own HTTP client, not autocannon: measured here,
 * autocannon's parser reads a binary (brotli) body of 11 KB five times slower than a text body of
 * the same size from the same trivial server, which would be charged to the server.
 */
async function requestsPerSecond(url, headers, { connections, duration, pid }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const get = () =>
    new Promise((resolve) => {
      http
        .get(url, { agent, headers }, (res) => {
          let bytes = 0;
          res.on('data', (c) => (bytes += c.length));
          res.on('end', () => resolve({ ok: res.statusCode === 200, bytes }));
          res.on('error', () => resolve({ ok: false, bytes }));
        })
        .on('error', () => resolve({ ok: false, bytes: 0 }));
    });
  const before = cpuMs(pid);
  const started = performance.now();
  const deadline = started + duration * 1000;
  let requests = 0;
  let bytes = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const r = await get();
        requests += 1;
        bytes += r.bytes;
        if (!r.ok) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: requests / seconds, bytesPerSecond: bytes / seconds, cpuUsPerRequest: ((cpuMs(pid) - before) * 1000) / requests, errors };
}

/**
 * Requests/s for one static asset (the product stylesheet), sent as it is and as its precompressed
 * brotli copy, alternating rounds so that drift on a shared machine touches both alike.
 */
export async function measureStaticThroughput({ connections = 50, duration = 10, rounds = 2 } = {}) {
  const server = await startServer();
  try {
    const html = await (await fetch(`${server.url}/home`)).text();
    const asset = html.match(/href="(\/_astro\/product\.[^"]+\.css)"/)?.[1];
    if (!asset) throw new Error('no product stylesheet linked from /home');
    const variants = [
      { name: 'identity', headers: { 'accept-encoding': 'identity' } },
      { name: 'br (precompressed)', headers: { 'accept-encoding': ACCEPT_ENCODING } },
    ];
    const pid = server.child.pid;
    const sums = new Map(variants.map((v) => [v.name, { rps: 0, bytesPerSecond: 0, cpuUsPerRequest: 0, errors: 0 }]));
    for (const v of variants) await requestsPerSecond(server.url + asset, v.headers, { connections: 5, duration: 2, pid }); // warm-up
    for (let i = 0; i < rounds; i++) {
      for (const v of variants) {
        const r = await requestsPerSecond(server.url + asset, v.headers, { connections, duration, pid });
        const s = sums.get(v.name);
        s.rps += r.rps / rounds;
        s.bytesPerSecond += r.bytesPerSecond / rounds;
        s.cpuUsPerRequest += r.cpuUsPerRequest / rounds;
        s.errors += r.errors;
      }
    }
    const rows = [];
    for (const v of variants) {
      const sent = await fetchAsSent(server.url + asset, v.headers['accept-encoding']);
      rows.push({ name: v.name, path: asset, encoding: sent.encoding, bytes: sent.wire, ...sums.get(v.name) });
    }
    const base = rows[0].rps;
    for (const row of rows) row.ratio = base ? row.rps / base : NaN;
    return { connections, duration, rounds, rows };
  } finally {
    await server.stop();
  }
}
