/**
 * The built server as a child process, for suites that cannot use the vitest helper (app.ts):
 * Playwright specs that need their own configuration.
 *
 *   const server = await spawnServer({ DATA_DIR: dir, STREAMS_PER_CLIENT: '1' });
 *   await page.goto(`${server.base}/home`);
 *   await server.stop();
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface SpawnedServer {
  base: string;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM (graceful shutdown), then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

/** Starts `scripts/start.mjs` (as `npm start` runs it) on a free port and resolves once /readyz answers. */
export async function spawnServer(env: Record<string, string>, readyWithinMs = 150_000): Promise<SpawnedServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  for (const deadline = Date.now() + readyWithinMs; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server not ready in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, output: () => output, stop };
}
