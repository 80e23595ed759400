// PGlite worker thread (plain ESM, not bundled: see findPgliteWorker() in client.ts).
//
// Runs the embedded Postgres (WASM) off the request thread and serves it over the
// Postgres wire protocol on a Unix socket; the main thread talks to it with postgres.js.
// workerData: { pgDataDir: string, socketPath: string }
// Messages out: { type: 'ready' } | { type: 'error', message, stack } | { type: 'closed' }
// Messages in:  { type: 'close' }
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { pgDataDir, socketPath } = workerData;

let db;
let server;

async function start() {
  fs.mkdirSync(pgDataDir, { recursive: true });
  db = await PGlite.create(pgDataDir, {
    extensions: { btree_gist, cube, earthdistance, pg_trgm },
  });
  // A socket file left by a crashed process would make listen() fail with EADDRINUSE.
  // The DATA_DIR lock (taken by the main thread before starting us) guarantees it is stale.
  fs.rmSync(socketPath, { force: true });
  // One connection only: PGlite is a single session, so a second connection's queries
  // would run inside the first one's open transaction.
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
}

async function stop() {
  try {
    await server?.stop();
  } catch {
    /* ignore */
  }
  try {
    if (db && !db.closed) await db.close();
  } catch {
    /* ignore */
  }
  fs.rmSync(socketPath, { force: true });
}

parentPort.on('message', async (msg) => {
  if (msg?.type === 'close') {
    await stop();
    parentPort.postMessage({ type: 'closed' });
    parentPort.close();
  }
});

try {
  await start();
  parentPort.postMessage({ type: 'ready' });
} catch (err) {
  await stop();
  parentPort.postMessage({ type: 'error', message: String(err?.message ?? err), stack: err?.stack });
}
