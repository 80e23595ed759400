// `npm start`: build when needed, check the configuration, then serve.
// The database is created, migrated and seeded by the server itself on start.
//
// The node adapter's standalone server is started here (not on import) so that this script owns
// the http.Server and can shut down gracefully on SIGTERM/SIGINT: stop accepting connections, end
// the live-availability streams (EventSource reconnects to another instance), let in-flight requests
// finish, close the database (which releases the DATA_DIR lock), exit.
import { buildIfNeeded, needsBuild, root } from './build-if-needed.mjs';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// V8 flags and the malloc setting must be given when the process starts: start again with them,
// replacing this process (same pid, nothing left behind) before anything is loaded.
{
  const { relaunch } = await import(pathToFileURL(path.join(root, 'src/server/runtime.ts')).href);
  const again = relaunch(process.execArgv, process.argv, process.env, typeof process.execve === 'function');
  if (again) process.execve(process.execPath, [process.execPath, ...again.args], again.env);
}

process.env.ASTRO_TELEMETRY_DISABLED = '1';
process.env.NODE_ENV ??= 'production';

const { parseConfig, ConfigError } = await import(pathToFileURL(path.join(root, 'src/server/config.ts')).href);
const { guardServer } = await import(pathToFileURL(path.join(root, 'src/server/http/edge.ts')).href);
const { loadAssets } = await import(pathToFileURL(path.join(root, 'src/server/http/static.ts')).href);
const { connectionLimits } = await import(pathToFileURL(path.join(root, 'src/server/http/connections.ts')).href);
const { trimWhenIdle } = await import(pathToFileURL(path.join(root, 'src/server/idleTrim.ts')).href);
let settings;
try {
  settings = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

if (settings.SUGU_CLOCK)
  console.warn(
    JSON.stringify({
      level: 'warn',
      msg: 'clock_set',
      at: settings.SUGU_CLOCK.toISOString(),
      note: 'SUGU_CLOCK is for tests: the server believes it is this time',
    }),
  );

/** How long in-flight requests get to finish before their connections are cut. */
const DRAIN_MS = settings.SHUTDOWN_TIMEOUT_MS;

/**
 * On a fresh checkout both the build and the embedded database are to be made: the database is made
 * in a process of its own meanwhile (scripts/prepare-db.mjs), so that a first start takes about the
 * longer of the two rather than their sum (bench/start.mjs). Without tsx (a production install
 * without dev dependencies) or with data already there, the server does it all itself as before.
 */
function prepareDatabaseWhileBuilding() {
  if (settings.DATABASE_URL || !needsBuild()) return undefined;
  if (fs.existsSync(path.join(path.resolve(settings.DATA_DIR), 'pglite', 'PG_VERSION'))) return undefined;
  try {
    import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/prepare-db.mjs')], {
      cwd: process.cwd(),
      env: process.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // A failure here is not fatal: the server then creates the database itself, and says why it cannot.
    child.once('error', () => resolve());
    child.once('exit', () => resolve());
  });
}
const preparing = prepareDatabaseWhileBuilding();
buildIfNeeded();
await preparing;
process.env.PORT = String(settings.PORT);
process.env.HOST = settings.HOST;
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const entry = await import(pathToFileURL(path.join(root, 'dist/server/entry.mjs')).href);
const { server: standalone, done } = entry.startServer();
// The application context (src/server/app.ts): the database opens and the background jobs start now.
const app = entry.startApp();
/** @type {import('node:http').Server} */
const httpServer = standalone.server;
// TRACE, bad %-encoding, oversized headers and bodies, and one client's excess of connections or
// requests are answered here, before Astro, and so are the build's static files (precompressed);
// the app's answers are compressed (src/server/http/edge.ts).
guardServer(httpServer, { assets: loadAssets(path.join(root, 'dist/client')), limits: connectionLimits(settings) });
done.catch((error) => {
  console.error(JSON.stringify({ level: 'error', msg: 'server_failed', error: String(error?.message ?? error) }));
  process.exit(1);
});

const log = (fields) => console.log(JSON.stringify({ level: 'info', ...fields }));
// Once quiet, the heap's emptied pages go back to the system (src/server/idleTrim.ts).
trimWhenIdle(httpServer, undefined, log);

let stopping = false;
async function shutdown(signal) {
  if (stopping) {
    // A second Ctrl-C: the operator does not want to wait.
    process.exit(130);
  }
  stopping = true;
  const started = performance.now();
  log({ msg: 'shutdown', signal });
  const closed = new Promise((resolve) => httpServer.close(() => resolve()));
  // Live streams end first (src/server/shutdown.ts), then the background jobs.
  await app.stop();
  // Keep-alive connections go as soon as their current request is answered.
  const sweep = setInterval(() => httpServer.closeIdleConnections(), 50);
  httpServer.closeIdleConnections();
  const drained = await Promise.race([closed.then(() => true), new Promise((r) => setTimeout(() => r(false), DRAIN_MS))]);
  clearInterval(sweep);
  if (!drained) httpServer.closeAllConnections();
  // Then the database, releasing the DATA_DIR lock.
  await app.close();
  log({ msg: 'stopped', drained, ms: Math.round(performance.now() - started) });
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Say when the app is ready: its database open and its availability index built.
const base = `http://${settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST}:${settings.PORT}`;
const started = performance.now();
for (let attempt = 0; attempt < 600 && !stopping; attempt++) {
  try {
    const res = await fetch(`${base}/readyz`);
    if (res.ok) {
      console.log(`Sugu is ready at ${base}/home (database ready in ${Math.round(performance.now() - started)} ms)`);
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
