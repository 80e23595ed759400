// Abuse benchmark: the two floods an outside attack run found, replayed against the built server on
// the embedded database, and what another diner gets meanwhile.
//
//   node bench/flood.mjs [--streams 2000] [--bookings 300] [--slow 5000]
//
// 1. One client (127.0.0.1) asks for live-availability streams as fast as 200 connections allow and
//    keeps every one it gets; another client (127.0.0.2) loads /home and /api/areas throughout.
//    Reported: streams granted and refused, the server's open files and memory, and the other
//    client's latency compared with the same requests before the flood.
// 2. One client sends guest bookings as fast as 50 connections allow: booked and refused.
// 3. One client (127.0.0.3) opens slow connections (a header line, then nothing), 200 at a time,
//    and holds every one the server keeps; another client (127.0.0.2) loads /home meanwhile.
import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs';
import { percentile, startServer } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const round = (x) => Math.round(x * 10) / 10;

function request(url, { method = 'GET', path, from, headers = {}, body, keep = false }) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({ host: hostname, port, method, path, headers, localAddress: from, agent: false }, (res) => {
      if (keep && res.statusCode === 200) return resolve({ status: 200, ms: performance.now() - started, close: () => req.destroy() });
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

/** Runs `task(i)` for i < n with at most `width` at once. */
async function pool(n, width, task) {
  const out = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

/** A process and its children (PGlite's worker is a process of the server's own). */
function processTree(pid) {
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  return [pid, ...children.flatMap(processTree)];
}

/** Open files and resident memory of the server with its children, as the machine pays for them. */
function processFacts(pid) {
  try {
    let fds = 0;
    let rssKiB = 0;
    for (const p of processTree(pid)) {
      fds += fs.readdirSync(`/proc/${p}/fd`).length;
      rssKiB += Number(fs.readFileSync(`/proc/${p}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
    }
    return { openFiles: fds, rssMiB: Math.round(rssKiB / 1024) };
  } catch {
    return { openFiles: null, rssMiB: null };
  }
}

async function latencies(url, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    for (const path of ['/home', '/api/areas']) {
      const r = await request(url, { path, from: '127.0.0.2' });
      if (r.status === 200) times.push(r.ms);
    }
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)) };
}

/** A connection from `from` that sends part of a request head and waits; resolves once connected, with whether the server closed it at once. */
function slowConnection(url, from) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: from });
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('GET /home HTTP/1.1\r\nHost: localhost\r\n');
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

async function measureSlow(server, slow) {
  const sockets = [];
  let opening = true;
  const flooding = pool(slow, 200, async () => sockets.push(await slowConnection(server.url, '127.0.0.3'))).finally(() => (opening = false));
  const times = [];
  // /home from another address, throughout the flood and for as long again after (20 at least).
  while (opening || times.length < 20) {
    const r = await request(server.url, { path: '/home', from: '127.0.0.2' });
    times.push(r.status === 200 ? r.ms : Infinity);
  }
  await flooding;
  const facts = processFacts(server.child.pid);
  const open = sockets.filter((s) => !s.destroyed).length;
  for (const s of sockets) s.destroy();
  times.sort((a, b) => a - b);
  return {
    asked: slow,
    heldByServer: open,
    closedAtOnce: slow - open,
    server: facts,
    otherHome: { n: times.length, failed: times.filter((t) => t === Infinity).length, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)) },
  };
}

export async function measureFlood({ streams = 2000, bookings = 300, slow = 5000 } = {}) {
  // Booking limits as they ship (startServer leaves them at their defaults).
  const server = await startServer();
  try {
    const stores = (await (await fetch(`${server.url}/api/stores?per_page=3`)).json()).items.map((s) => s.id);
    const streamPath = `/api/availability/stream?stores=${stores.join(',')}&party=2`;
    const before = { ...processFacts(server.child.pid), other: await latencies(server.url, 20) };

    const held = [];
    const flooding = pool(streams, 200, async () => {
      const r = await request(server.url, { path: streamPath, from: '127.0.0.1', headers: { accept: 'text/event-stream' }, keep: true });
      if (r.close) held.push(r);
      return r.status;
    });
    const during = await latencies(server.url, 20);
    const statuses = await flooding;
    const facts = processFacts(server.child.pid);
    for (const s of held) s.close();

    const count = (list, status) => list.filter((s) => s === status).length;
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCMinutes(0, 0, 0);
    const booked = await pool(bookings, 50, (i) =>
      request(server.url, {
        method: 'POST',
        path: '/api/guest-bookings',
        from: '127.0.0.1',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({
          store_id: stores[i % stores.length],
          start: new Date(start.getTime() + (i % 40) * 15 * 60_000).toISOString(),
          party_size: 2,
          name: '負荷 太郎',
          name_kana: 'フカ タロウ',
          phone: `090${String(10_000_000 + i).slice(-8)}`,
          email: `flood-${i}@example.jp`,
        }),
      }).then((r) => r.status),
    );
    const slowResult = await measureSlow(server, slow);
    const result = {
      slow: slowResult,
      streams: {
        asked: streams,
        granted: count(statuses, 200),
        refused429: count(statuses, 429),
        refused503: count(statuses, 503),
        failed: count(statuses, 0),
      },
      server: { before: { openFiles: before.openFiles, rssMiB: before.rssMiB }, duringFlood: facts },
      otherClient: { before: before.other, duringFlood: during },
      bookings: { asked: bookings, booked: count(booked, 201), refused429: count(booked, 429), other: bookings - count(booked, 201) - count(booked, 429) },
    };
    result.markdown = [
      `One client asked for ${streams} live streams (200 at a time) and kept what it got; another client loaded /home and /api/areas meanwhile.`,
      '',
      '| | streams granted | refused 429 | refused 503 | server open files | server RSS MiB | other client p50 / p95 ms |',
      '|---|---|---|---|---|---|---|',
      `| before | — | — | — | ${before.openFiles} | ${before.rssMiB} | ${before.other.p50} / ${before.other.p95} |`,
      `| during the flood | ${result.streams.granted} | ${result.streams.refused429} | ${result.streams.refused503} | ${facts.openFiles} | ${facts.rssMiB} | ${during.p50} / ${during.p95} |`,
      '',
      `Slow connections from one address (${slow} asked, 200 at a time, a header line then nothing): ${slowResult.heldByServer} held by the server (CONNECTIONS_PER_ADDRESS), ${slowResult.closedAtOnce} closed at once; server ${slowResult.server.openFiles} open files, ${slowResult.server.rssMiB} MiB. Another address's /home meanwhile: p50 ${slowResult.otherHome.p50} ms, p95 ${slowResult.otherHome.p95} ms over ${slowResult.otherHome.n} requests (${slowResult.otherHome.failed} failed).`,
      '',
      `Guest-booking burst from one address (${bookings} requests, 50 at a time): ${result.bookings.booked} booked, ${result.bookings.refused429} refused with 429, ${result.bookings.other} other answers (taken slots).`,
    ];
    return result;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureFlood({ streams: arg('streams', 2000), bookings: arg('bookings', 300), slow: arg('slow', 5000) });
  console.log(result.markdown.join('\n'));
}
