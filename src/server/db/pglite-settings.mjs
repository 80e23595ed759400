// PostgreSQL's settings for the embedded database (plain ESM beside pglite-worker.mjs, which imports it).
//
// PGlite starts with a server's defaults: shared_buffers 128 MB and max_connections 100, all of it
// inside the WASM heap, which grows as it is touched and never gives memory back. Sugu's worker is one
// session on a database of a few tens of MB (the demo data: about 60 MB on disk), so each of these
// is bounded to what one session uses; the OS page cache holds the files beside them.

/** Each setting's bound. */
export const PGLITE_SETTINGS = Object.freeze({
  /** The buffer pool: the hot part of the demo data fits; the rest is read from the page cache. */
  shared_buffers: '16MB',
  /** One connection is served (PGLiteSocketServer maxConnections 1); a few slots for PGlite's own. */
  max_connections: '4',
  wal_buffers: '1MB',
  temp_buffers: '2MB',
  /** Per sort or hash in a query: the listing's queries sort a few thousand rows at most. */
  work_mem: '4MB',
  /** Index builds in migrations and VACUUM. */
  maintenance_work_mem: '16MB',
});

/** PGlite's own start parameters (replaced as a whole by `startParams`, not merged), then ours. */
export function pgliteStartParams(defaults) {
  return [...defaults, ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}
