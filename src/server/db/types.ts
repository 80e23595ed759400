/** The database as the rest of the server sees it: Drizzle over postgres.js, on PGlite or PostgreSQL. */
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import type * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema>;

/** An open transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The database or an open transaction: what a query helper may run on. */
export type Q = Db | Tx;

export interface DbHandle {
  db: Db;
  /** The raw postgres.js client (for LISTEN/NOTIFY, COPY, advisory locks …). */
  sql: postgres.Sql;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** Embedded database folder (used when databaseUrl is not given). */
  dataDir?: string;
  /** PostgreSQL connection URL; when set, PGlite is not used. */
  databaseUrl?: string;
  /** Pool size for PostgreSQL (default 10). */
  max?: number;
  /**
   * PGlite: told when its worker process ends unexpectedly (it is then restarted), so that the
   * database is known to be away before a query finds out.
   */
  onWorkerExit?: (error: Error) => void;
}
