// PGlite worker process (plain ESM, not bundled: see findPgliteWorker() in client.ts).
//
// Runs the embedded Postgres (WASM) off the request thread and serves it over the
// Postgres wire protocol on a Unix socket; the app talks to it with postgres.js. A process of its
// own, so that its failing (a WASM abort, the kernel's OOM killer, kill -9) is a database going
// away that the app degrades around and restarts, as it would a PostgreSQL server.
// Started with fork(): argv[2] is JSON { pgDataDir: string, socketPath: string, reopen: boolean }
// (`reopen`: a restart, which must find the database files and never creates new ones).
// Messages out: { type: 'ready' } | { type: 'error', message, stack } | { type: 'closed' }
// Messages in:  { type: 'close' }
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pgliteStartParams } from './pglite-settings.mjs';

const { pgDataDir, socketPath, reopen } = JSON.parse(process.argv[2] ?? '{}');

let db;
let server;

async function start() {
  // A restart reopens the app's database; a folder without one (moved, unmounted) is an error to
  // retry, not an empty database to serve.
  if (reopen && !fs.existsSync(path.join(pgDataDir, 'PG_VERSION'))) throw new Error(`no database in ${pgDataDir}`);
  fs.mkdirSync(pgDataDir, { recursive: true });
  db = await PGlite.create(pgDataDir, {
    extensions: { btree_gist, cube, earthdistance, pg_trgm },
    startParams: pgliteStartParams(PGlite.defaultStartParams),
  });
  // A socket file left by a crashed process would make listen() fail with EADDRINUSE.
  // The DATA_DIR lock (taken by the app before starting us) guarantees it is stale.
  fs.rmSync(socketPath, { force: true });
  // One connection only: PGlite is a single session, so a second connection's queries
  // would run inside the first one's open transaction.
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
}

let stopped;
function stop() {
  stopped ??= (async () => {
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
  })();
  return stopped;
}

/** Tells the app, then ends: a message is sent asynchronously, so the exit waits for it. */
const sendAndExit = (msg, code) => (process.connected ? process.send(msg, () => process.exit(code)) : process.exit(code));

process.on('message', async (msg) => {
  if (msg?.type === 'close') {
    await stop();
    sendAndExit({ type: 'closed' }, 0);
  }
});
// The app gone (even by kill -9): never outlive it, or its successor would find the DATA_DIR lock
// free while this process still writes to the files. At once, without closing: PGlite survives a
// process crash, and a successor may be starting already.
process.on('disconnect', () => process.exit(0));
// Ctrl-C and a service manager's SIGTERM reach the whole process group: the app shuts down in
// order and closes the database last (the 'close' message), so these are its to handle.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});

try {
  await start();
  process.send?.({ type: 'ready' });
} catch (err) {
  await stop();
  sendAndExit({ type: 'error', message: String(err?.message ?? err), stack: err?.stack }, 1);
}
