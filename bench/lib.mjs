// Shared pieces of the benchmarks: start the built server on either engine, percentiles, machine facts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
    // Other work on the machine skews the figures: the 1-minute load average when the run began.
    loadAverage: Number(os.loadavg()[0].toFixed(1)),
  };
}

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

export function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] };
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server as `npm start` runs it (scripts/start.mjs: the HTTP edge with compression and
 * the precompressed static files) on a fresh embedded database or the given PostgreSQL URL.
 */
export async function startServer({ databaseUrl, env = {} } = {}) {
  const port = await freePort();
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-bench-'));
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'production',
      SUGU_LOG_REQUESTS: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server not ready: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A throwaway PostgreSQL cluster (the same helper the tests use). */
export async function startPostgres() {
  const { register } = await import('tsx/esm/api');
  register();
  const { startPostgres: start, createDatabase } = await import('../tests/helpers/postgres.ts');
  const cluster = await start();
  return { ...cluster, createDatabase: (name) => createDatabase(cluster.url, name) };
}

export function fmt(n, digits = 1) {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}
