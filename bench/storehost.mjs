// The store host's budgets (issue 25), on one PostgreSQL database with two app instances A and B
// started as `npm start` starts them, their clock at 11:00 tomorrow in Tokyo (SUGU_CLOCK) so the
// business day has most of its hours ahead whatever the hour the bench runs at:
//
//  - a walk-in seated through the store API on A → the availability streams a diner's listing (ten
//    stores) and a diner's open store page (one store) hold on B change: p95 from the request sent
//    to the event (bench/live.mjs's streams, measured the same way as its A→B path);
//  - the ledger with 200 bookings and 30 tables: GET /list-booking-manage on the store host,
//    signed in by cookie, at one connection, beside /term from the same server in the same run;
//  - the tablet ledger page's JavaScript on the wire (Content-Encoding read from the responses,
//    as bench/weight.mjs counts diner pages);
//  - Lighthouse accessibility on every store-host screen, signed in by cookie where it needs one
//    (the not-found page answers 404, which Lighthouse will not score: axe checks it in the browser
//    tests).
//
//   npm run bench -- storehost        (bench/run.mjs: figures into bench/RESULTS.md)
//
// Only loopback addresses are used; every loop is bounded in count and time.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { ensurePostgres } from '../scripts/postgres.mjs';
import { percentile, startPostgres, startServer } from './lib.mjs';
import { openStreams } from './live.mjs';
import { ACCEPT_ENCODING } from './weight.mjs';

export const STOREHOST_BUDGET = { walkInP95Ms: 500, ledgerP95Ms: 50, ledgerJsWire: 100 * 1024, accessibility: 100 };

const LEDGER_BOOKINGS = 200;
const LEDGER_TABLES = 30;
const PARTY = 2;
const DEMO_STAFF = { email: 'store@sugu.jp', password: 'sugu-store-2026' };
const DEMO_ADMIN = { email: 'admin@sugu.jp', password: 'sugu-admin-2026' };
// Many bookings from one address and one phone: the diner-facing limits lifted, as the tests do.
const NO_BOOKING_LIMITS = { GUEST_BOOKINGS_PER_ADDRESS: '1000000', BOOKINGS_PER_CONTACT: '1000000' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x) => Math.round(x * 10) / 10;
const pct = (xs, p) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    p,
  );
const DAY_MS = 24 * 3600_000;
const MIN_MS = 60_000;

/** 11:00 in Tokyo on the business day after the current one. */
export function elevenTomorrow() {
  const tokyoDay = new Date(Date.now() + 9 * 3600_000 - 5 * 3600_000 + DAY_MS).toISOString().slice(0, 10);
  return new Date(`${tokyoDay}T11:00:00+09:00`);
}

/** A JSON client of one instance, as the demo staff (Bearer token). */
export function api(base, token) {
  return async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', 'accept-language': 'ja', origin: base, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

export async function login(base, who) {
  const res = await api(base)('POST', '/api/login', who);
  if (res.status !== 200) throw new Error(`sign-in of ${who.email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** One GET on the loopback address with `host` as the Host header: status, encoding, wire and decoded bytes, ms to the last byte. */
export function get(port, path, headers) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - t0;
          const wire = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'] ?? 'identity';
          const decoded = encoding === 'br' ? zlib.brotliDecompressSync(wire) : encoding === 'gzip' ? zlib.gunzipSync(wire) : wire;
          resolve({ status: res.statusCode, location: res.headers.location, encoding, wire: wire.length, raw: decoded.length, body: decoded, ms });
        });
      })
      .on('error', reject);
  });
}

/**
 * Walk-ins seated (and freed) through the store API on A, each timed from the request sent to the
 * event on B's streams showing the store's free tables changed.
 */
async function walkInToStreams({ A, B, call, storeId, samples }) {
  const { items: tables } = (await call('GET', '/api/store/tables')).body;
  // Online tables for the party: a walk-in there takes a table diners could book, so they see it.
  const candidates = tables.filter((t) => t.online && t.min_party <= PARTY && PARTY <= t.max_party).map((t) => t.id);
  if (!candidates.length) throw new Error('the demo store has no online table for two');
  const others = Array.from({ length: 30 }, (_, i) => i + 1)
    .filter((id) => id !== storeId)
    .slice(0, 9);
  const last = new Map(); // stream -> free tables of the store last heard
  let pending = null;
  const onEvent = (stream, data, at) => {
    if (data.store_id !== storeId) return;
    const before = last.get(stream);
    last.set(stream, data.free_tables);
    if (!pending || before === data.free_tables || pending.got.has(stream)) return;
    pending.got.set(stream, at - pending.t0);
    if (pending.got.size === pending.streams) pending.done();
  };
  const listing = await openStreams([B], [storeId, ...others], 1, onEvent);
  const storePage = await openStreams([B], [storeId], 1, onEvent);
  const [listingStream] = listing.streams;
  const [pageStream] = storePage.streams;
  const seated = { listing: [], storePage: [], missed: 0 };
  const freed = { listing: [], storePage: [], missed: 0 };
  const restUntil = new Map(); // table -> when it may be seated again (Date.now() ms)
  try {
    for (let i = 0; i < samples; i++) {
      for (const [what, into] of [
        ['seat', seated],
        ['free', freed],
      ]) {
        let done;
        const finished = new Promise((r) => (done = r));
        pending = { t0: performance.now(), got: new Map(), streams: 2, done };
        let ok = false;
        const refusals = [];
        if (what === 'seat') {
          // A freed walk-in keeps its table to the end of the minute it left in: a table is seated
          // again only a minute after it was freed (or refused), waiting for the first to come back
          // when every one was used that recently. No refused write is wasted on the staff's limit.
          for (let k = 0; !ok && k < candidates.length; k++) {
            const tableId = candidates.reduce((a, b) => ((restUntil.get(a) ?? 0) <= (restUntil.get(b) ?? 0) ? a : b));
            const wait = (restUntil.get(tableId) ?? 0) - Date.now();
            if (wait > 0) await sleep(wait);
            pending.t0 = performance.now();
            const res = await call('POST', '/api/store/walk-ins', { party_size: PARTY, table_id: tableId, name: 'ベンチ' });
            if (res.status === 201) {
              ok = true;
              seated.current = res.body.id;
              seated.table = tableId;
            } else if (res.status === 409) {
              refusals.push(res.body.error?.code);
              restUntil.set(tableId, Date.now() + 61_000);
            } else throw new Error(`walk-in: ${res.status} ${JSON.stringify(res.body)}`);
          }
          if (!ok) throw new Error(`no table for two free for a walk-in at the demo store (tried ${candidates.join(', ')}: ${refusals.join(', ')})`);
        } else {
          const res = await call('POST', `/api/store/walk-ins/${seated.current}/free`);
          if (res.status !== 200) throw new Error(`free: ${res.status} ${JSON.stringify(res.body)}`);
          restUntil.set(seated.table, Date.now() + 61_000);
        }
        await Promise.race([finished, sleep(5000)]);
        const l = pending.got.get(listingStream);
        const p = pending.got.get(pageStream);
        if (l === undefined || p === undefined) into.missed++;
        if (l !== undefined) into.listing.push(l);
        if (p !== undefined) into.storePage.push(p);
        pending = null;
        await sleep(20);
      }
    }
  } finally {
    listing.close();
    storePage.close();
  }
  const fig = (xs) => ({ n: xs.length, p50_ms: round(pct(xs, 50)), p95_ms: round(pct(xs, 95)), max_ms: round(Math.max(...xs)) });
  return {
    samples,
    seated: { listing: fig(seated.listing), storePage: fig(seated.storePage), missed: seated.missed },
    freed: { listing: fig(freed.listing), storePage: fig(freed.storePage), missed: freed.missed },
    server: { A: A.url, B: B.url },
  };
}

/** The demo store brought to LEDGER_TABLES tables (the new ones for one to four, bookable online). */
export async function seedTables(call) {
  let { items: tables } = (await call('GET', '/api/store/tables')).body;
  for (let i = 1; tables.length < LEDGER_TABLES; i++) {
    const res = await call('POST', '/api/store/tables', { label: `ベンチ${i}`, kind: 'table', min_party: 1, max_party: 4 });
    if (res.status !== 201) throw new Error(`table: ${res.status} ${JSON.stringify(res.body)}`);
    tables = (await call('GET', '/api/store/tables')).body.items;
  }
  return tables;
}

/** The demo store's business day brought to LEDGER_BOOKINGS bookings, through the store API (phone bookings). */
export async function seedLedger({ call, serverNow }) {
  const tables = (await call('GET', '/api/store/tables')).body.items;
  const day = (await call('GET', '/api/store/bookings')).body;
  let count = day.items.length;
  // Phone bookings for two from the next quarter hour on, each start filled until no table is left.
  const dayEnd = new Date(`${day.date}T05:00:00+09:00`).getTime() + DAY_MS - 2 * 3600_000;
  const first = Math.ceil((serverNow() + 30 * MIN_MS) / (15 * MIN_MS)) * 15 * MIN_MS;
  let n = 0;
  for (let at = first; at <= dayEnd && count < LEDGER_BOOKINGS; at += 15 * MIN_MS) {
    while (count < LEDGER_BOOKINGS) {
      const start = `${new Date(at + 9 * 3600_000).toISOString().slice(0, 19)}+09:00`;
      const res = await call('POST', '/api/store/bookings', {
        start,
        party_size: PARTY,
        name: `台帳 ${++n}`,
        name_kana: 'ダイチョウ ベンチ',
        phone: `090-1111-${String(n).padStart(4, '0')}`,
        note: n % 5 === 0 ? '窓側希望' : '',
      });
      if (res.status === 201) count++;
      // Every table taken at this start: on to the next. (Each booking has its own phone: one contact's overlapping bookings are refused.)
      else if (res.status === 409 && res.body.error?.code !== 'duplicate_booking') break;
      else throw new Error(`phone booking: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  const after = (await call('GET', `/api/store/bookings?date=${day.date}`)).body.items.length;
  return { date: day.date, tables: tables.length, bookings: after };
}

/** Alternating rounds of one-at-a-time GETs of each route: p50/p95 ms and requests/s, so drift on a shared machine touches both alike. */
export async function oneConnection(port, routes, { seconds, rounds = 3, pid }) {
  const times = new Map(routes.map((r) => [r.name, []]));
  const spent = new Map(routes.map((r) => [r.name, 0]));
  const cpu = new Map(routes.map((r) => [r.name, 0]));
  for (const r of routes) for (let i = 0; i < 20; i++) await get(port, r.path, r.headers); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const r of routes) {
      const until = performance.now() + (seconds * 1000) / rounds;
      const t0 = performance.now();
      const cpu0 = cpuMs(pid);
      while (performance.now() < until) {
        const res = await get(port, r.path, r.headers);
        if (res.status !== 200) throw new Error(`${r.name}: HTTP ${res.status}`);
        times.get(r.name).push(res.ms);
      }
      spent.set(r.name, spent.get(r.name) + (performance.now() - t0));
      cpu.set(r.name, cpu.get(r.name) + (cpuMs(pid) - cpu0));
    }
  }
  return routes.map((r) => {
    const xs = times.get(r.name);
    return {
      name: r.name,
      path: r.path,
      requests: xs.length,
      p50_ms: round(pct(xs, 50)),
      p95_ms: round(pct(xs, 95)),
      p99_ms: round(pct(xs, 99)),
      rps: round((xs.length * 1000) / spent.get(r.name)),
      cpu_ms: round(cpu.get(r.name) / xs.length),
    };
  });
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere): steadier than wall time on a shared machine. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

const KINDS = { document: 'html', stylesheet: 'css', script: 'js' };

/** What the tablet's browser loads for the ledger, each file fetched again as the server sends it. */
export async function ledgerWeight({ port, storeHost, cookie }) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
    await context.addCookies([{ name: 'sugu_store', value: cookie, url: storeHost }]);
    const page = await context.newPage();
    const loaded = new Map();
    page.on('response', (res) => {
      const kind = KINDS[res.request().resourceType()];
      if (kind && res.url().startsWith(storeHost)) loaded.set(res.url(), kind);
    });
    const response = await page.goto(`${storeHost}/list-booking-manage`, { waitUntil: 'load' });
    // The ledger's live stream stays open, so "network idle" may never come: its scripts are loaded once its status says so.
    await page.locator('[data-live-status]').waitFor({ state: 'attached', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
    if (response?.status() !== 200 || !response.url().endsWith('/list-booking-manage')) throw new Error(`ledger: ${response?.status()} at ${response?.url()}`);
    const row = { path: '/list-booking-manage', files: [] };
    for (const kind of Object.values(KINDS)) Object.assign(row, { [`${kind}Raw`]: 0, [`${kind}Wire`]: 0 });
    const host = new URL(storeHost).host;
    for (const [url, kind] of loaded) {
      const u = new URL(url);
      const sent = await get(port, u.pathname + u.search, {
        host,
        cookie: `sugu_store=${cookie}`,
        'accept-encoding': ACCEPT_ENCODING,
        'accept-language': 'ja',
      });
      row[`${kind}Raw`] += sent.raw;
      row[`${kind}Wire`] += sent.wire;
      row.files.push({ kind, path: u.pathname, encoding: sent.encoding, raw: sent.raw, wire: sent.wire });
    }
    // Small scripts Astro writes into the page itself: sent inside the compressed HTML, counted here at their full size.
    const html = (await get(port, '/list-booking-manage', { host, cookie: `sugu_store=${cookie}`, 'accept-language': 'ja' })).body.toString('utf8');
    row.inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => Buffer.byteLength(m[1]));
    row.jsInline = row.inlineScripts.reduce((a, b) => a + b, 0);
    row.jsTotalWire = row.jsWire + row.jsInline;
    row.encodings = [...new Set(row.files.map((f) => f.encoding))];
    return row;
  } finally {
    await browser.close();
  }
}

/** Lighthouse accessibility of each screen at tablet size; `cookie` signs the run in (sent with every request). */
async function accessibility(screens, storeHost) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const out = [];
  try {
    for (const { name, path, cookie } of screens) {
      const options = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility'],
        formFactor: 'desktop',
        screenEmulation: { mobile: false, width: 1024, height: 768, deviceScaleFactor: 1, disabled: false },
        throttlingMethod: 'provided',
        locale: 'ja',
        ...(cookie ? { extraHeaders: { Cookie: `sugu_store=${cookie}` } } : {}),
      };
      let result = await lighthouse(storeHost + path, options);
      if (result.lhr.runtimeError) result = await lighthouse(storeHost + path, options);
      const { categories, audits, finalDisplayedUrl } = result.lhr;
      out.push({
        name,
        path,
        // A signed-in screen that sent the run to the sign-in page would be scored as that page.
        landedOn: new URL(finalDisplayedUrl).pathname,
        accessibility: typeof categories.accessibility?.score === 'number' ? Math.round(categories.accessibility.score * 100) : null,
        failedAudits: Object.values(audits)
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
          .map((a) => a.id),
        runtimeError: result.lhr.runtimeError?.message ?? null,
      });
    }
  } finally {
    await chrome.kill();
  }
  return out;
}

/** A booking at the demo store that owes a fee (a no-show marked on one already begun), for the payment screens. */
async function feeBooking(call, serverNow) {
  const day = (await call('GET', '/api/store/bookings')).body;
  const begun = day.items.filter((b) => b.status === 'confirmed' && !b.attendance && Date.parse(b.start) < serverNow());
  for (const b of begun) {
    const res = await call('PATCH', `/api/store/bookings/${b.id}`, { mark: 'no_show' });
    if (res.status !== 200) continue;
    const fee = await call('GET', `/api/store/fees/${b.id}`);
    if (fee.status === 200 && fee.body.fee) return b.id;
  }
  return null;
}

export async function measureStoreHost({ quick = false } = {}) {
  const loadAverage = os.loadavg().map((x) => Number(x.toFixed(1)));
  process.env.PG_BIN ??= ensurePostgres();
  const pg = await startPostgres();
  const servers = [];
  try {
    const databaseUrl = await pg.createDatabase('storehost');
    const clockAt = elevenTomorrow();
    const env = { SUGU_CLOCK: clockAt.toISOString(), ...NO_BOOKING_LIMITS };
    // The servers' "now": their clock started at clockAt about when A started (B a few seconds later).
    const startedAt = Date.now();
    const serverNow = () => clockAt.getTime() + (Date.now() - startedAt);
    // One after the other: A creates and seeds the database, B finds it ready.
    const A = await startServer({ databaseUrl, env });
    servers.push(A);
    const B = await startServer({ databaseUrl, env });
    servers.push(B);
    const portOf = (s) => Number(new URL(s.url).port);
    const storeHost = `http://store.localhost:${portOf(A)}`;
    const staff = await login(A.url, DEMO_STAFF);
    const call = api(A.url, staff.token);
    const storeId = staff.store_id;

    // The ledger's tables first: the seed's few tables may all be booked at 11:00, and a walk-in needs a free one.
    await seedTables(call);
    console.log('  walk-ins on A → streams on B');
    const walkIn = await walkInToStreams({ A, B, call, storeId, samples: quick ? 20 : 60 });

    console.log(`  the ledger: ${LEDGER_TABLES} tables, ${LEDGER_BOOKINGS} bookings`);
    const seeded = await seedLedger({ call, serverNow });
    const headers = { 'accept-encoding': ACCEPT_ENCODING, 'accept-language': 'ja,en-US;q=0.9' };
    const storeHeaders = { ...headers, host: new URL(storeHost).host, cookie: `sugu_store=${staff.token}` };
    const probe = await get(portOf(A), '/list-booking-manage', storeHeaders);
    const rowsDrawn = (probe.body.toString('utf8').match(/data-booking="/g) ?? []).length;
    if (probe.status !== 200) throw new Error(`ledger: HTTP ${probe.status} (${probe.location ?? ''})`);
    const render = await oneConnection(
      portOf(A),
      [
        { name: 'ledger', path: '/list-booking-manage', headers: storeHeaders },
        { name: '/term', path: '/term', headers: { ...headers, host: `127.0.0.1:${portOf(A)}` } },
      ],
      { seconds: quick ? 6 : 20, pid: A.child.pid },
    );

    console.log('  the tablet ledger page: bytes on the wire');
    const weight = await ledgerWeight({ port: portOf(A), storeHost, cookie: staff.token });

    console.log('  Lighthouse accessibility, every store-host screen');
    const { items: tables } = (await call('GET', '/api/store/tables')).body;
    const fee = await feeBooking(call, serverNow);
    const admin = await login(A.url, DEMO_ADMIN).catch(() => null);
    const screens = [
      { name: 'store sign-in', path: '/store-signin' },
      { name: 'store sign-up', path: '/store-signup' },
      { name: 'admin sign-in', path: '/admin-signin' },
      { name: 'ledger (list-booking-manage)', path: '/list-booking-manage', cookie: staff.token },
      { name: 'seats (list-seat-manage)', path: '/list-seat-manage', cookie: staff.token },
      { name: 'seat edit', path: `/edit-seat/${tables[0].id}`, cookie: staff.token },
      { name: 'store details (detail-store-manage)', path: '/detail-store-manage', cookie: staff.token },
      { name: 'store edit', path: `/edit-store/${storeId}`, cookie: staff.token },
      { name: 'stores (list-store-manage)', path: '/list-store-manage', cookie: staff.token },
      { name: 'fees (list-payment-manage)', path: '/list-payment-manage', cookie: staff.token },
      ...(fee
        ? [
            { name: 'fee detail', path: `/payment-detail/${fee}`, cookie: staff.token },
            { name: 'payment', path: `/payment/${fee}`, cookie: staff.token },
            { name: 'card payment', path: `/card-payment/${fee}`, cookie: staff.token },
          ]
        : []),
      { name: 'banners (campaign-banner)', path: '/campaign-banner', cookie: staff.token },
      ...(admin ? [{ name: 'admin: create a store', path: '/admin-create-store', cookie: admin.token }] : []),
    ];
    const lighthouseRows = await accessibility(screens, storeHost);

    const ledger = render.find((r) => r.name === 'ledger');
    const term = render.find((r) => r.name === '/term');
    const misses = [];
    const seatP95 = Math.max(walkIn.seated.listing.p95_ms, walkIn.seated.storePage.p95_ms);
    if (!(seatP95 < STOREHOST_BUDGET.walkInP95Ms) || walkIn.seated.missed)
      misses.push(`walk-in → diner streams on B: p95 ${seatP95} ms, ${walkIn.seated.missed} missed (budget < ${STOREHOST_BUDGET.walkInP95Ms} ms, none missed)`);
    if (seeded.bookings < LEDGER_BOOKINGS || seeded.tables < LEDGER_TABLES)
      misses.push(`the ledger was seeded with ${seeded.bookings} bookings and ${seeded.tables} tables only`);
    if (!(ledger.p95_ms < STOREHOST_BUDGET.ledgerP95Ms)) misses.push(`ledger render p95 ${ledger.p95_ms} ms (budget < ${STOREHOST_BUDGET.ledgerP95Ms} ms)`);
    if (!(weight.jsTotalWire <= STOREHOST_BUDGET.ledgerJsWire))
      misses.push(`ledger JavaScript ${(weight.jsTotalWire / 1024).toFixed(1)} KB on the wire (budget ≤ 100 KB)`);
    if (!fee) misses.push('no booking owing a fee: the payment screens were not scored');
    if (!admin) misses.push('the demo admin could not sign in: admin-create-store was not scored');
    for (const l of lighthouseRows) {
      if (l.accessibility !== STOREHOST_BUDGET.accessibility)
        misses.push(`Lighthouse accessibility ${l.accessibility ?? '—'} on ${l.path} (${l.failedAudits.join(', ') || l.runtimeError})`);
      if (l.landedOn !== new URL(storeHost + l.path).pathname) misses.push(`${l.path} ended on ${l.landedOn}`);
    }
    return {
      date: new Date().toISOString(),
      loadAverage,
      walkIn,
      seeded,
      rowsDrawn,
      render,
      ratio: { p95: round(ledger.p95_ms / term.p95_ms), rps: round(ledger.rps / term.rps), cpu: round(ledger.cpu_ms / term.cpu_ms) },
      weight,
      lighthouse: lighthouseRows,
      misses,
      ok: misses.length === 0,
    };
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await pg.stop();
  }
}

/** The section of bench/RESULTS.md. */
export function storeHostMarkdown(r) {
  const kb = (b) => (b / 1024).toFixed(1);
  const w = r.walkIn;
  return [
    `Measured ${r.date.slice(0, 10)}, shared machine, load ${r.loadAverage[0]} (1/5/15-minute load average ${r.loadAverage.join(', ')} when the section began). Two app instances on one PostgreSQL, their clock at 11:00 tomorrow in Tokyo (SUGU_CLOCK). Budgets: walk-in on A → the diner's streams on B p95 < ${STOREHOST_BUDGET.walkInP95Ms} ms; the ledger with ${LEDGER_BOOKINGS} bookings and ${LEDGER_TABLES} tables p95 < ${STOREHOST_BUDGET.ledgerP95Ms} ms at one connection; the tablet ledger's JavaScript ≤ ${STOREHOST_BUDGET.ledgerJsWire / 1024} KB on the wire; Lighthouse accessibility ${STOREHOST_BUDGET.accessibility} on every screen. ${r.ok ? 'All met.' : `**Missed:** ${r.misses.join('; ')}.`}`,
    '',
    `Walk-ins seated (and freed) for two at an online table through \`POST /api/store/walk-ins\` on A, ${w.samples} of each, timed from the request sent to the event on B's availability streams (a listing's ten stores; a store page's one) showing the store's free tables changed:`,
    '',
    '| change on A | stream on B | p50 ms | p95 ms | max ms | missed |',
    '|---|---|---|---|---|---|',
    `| seated | diner listing (10 stores) | ${w.seated.listing.p50_ms} | ${w.seated.listing.p95_ms} | ${w.seated.listing.max_ms} | ${w.seated.missed} |`,
    `| seated | diner store page | ${w.seated.storePage.p50_ms} | ${w.seated.storePage.p95_ms} | ${w.seated.storePage.max_ms} | |`,
    `| freed | diner listing (10 stores) | ${w.freed.listing.p50_ms} | ${w.freed.listing.p95_ms} | ${w.freed.listing.max_ms} | ${w.freed.missed} |`,
    `| freed | diner store page | ${w.freed.storePage.p50_ms} | ${w.freed.storePage.p95_ms} | ${w.freed.storePage.max_ms} | |`,
    '',
    `The ledger (\`GET /list-booking-manage\` on the store host, signed in by cookie, compressed as sent) of a day with ${r.seeded.bookings} bookings (${r.rowsDrawn} rows drawn) at ${r.seeded.tables} tables, one request at a time, in alternating rounds with /term from the same server:`,
    '',
    '| route | requests | p50 ms | p95 ms | p99 ms | req/s | server CPU ms / request |',
    '|---|---|---|---|---|---|---|',
    ...r.render.map((x) => `| ${x.name} \`${x.path}\` | ${x.requests} | ${x.p50_ms} | ${x.p95_ms} | ${x.p99_ms} | ${x.rps} | ${x.cpu_ms ?? '—'} |`),
    '',
    `Ledger ÷ /term: p95 ×${r.ratio.p95}, requests/s ×${r.ratio.rps}, server CPU per request ×${r.ratio.cpu ?? '—'} (the steadier figure on a shared machine: the wall-clock times include PostgreSQL's round trips waiting for a core).`,
    '',
    `The tablet ledger page (1024×768) as the server sends it: HTML ${kb(r.weight.htmlRaw)} / ${kb(r.weight.htmlWire)} KB, CSS ${kb(r.weight.cssRaw)} / ${kb(r.weight.cssWire)} KB, JavaScript in files ${kb(r.weight.jsRaw)} / ${kb(r.weight.jsWire)} KB (raw / wire; ${r.weight.encodings.join(', ')}) and ${r.weight.inlineScripts.length} scripts inside the HTML, ${kb(r.weight.jsInline)} KB at full size: **${kb(r.weight.jsTotalWire)} KB** of JavaScript at most.`,
    '',
    'Lighthouse accessibility at tablet size (signed in by the session cookie where the screen needs it):',
    '',
    '| screen | path | accessibility | failed audits |',
    '|---|---|---|---|',
    ...r.lighthouse.map((l) => `| ${l.name} | \`${l.path}\` | ${l.accessibility ?? '—'} | ${l.failedAudits.join(', ') || '—'} |`),
  ];
}
