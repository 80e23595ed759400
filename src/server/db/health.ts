/**
 * Whether the database can be reached right now. A query that fails because the database is not
 * there (connection refused or cut, a server shutting down, a connect timeout, PGlite's worker
 * gone) marks it away; from then on a probe asks it every second until it answers, and marks it
 * back. Meanwhile pages are served from what this instance keeps in memory (the availability index,
 * store details) with a notice that booking is paused, and writes answer 503 with Retry-After.
 */
import { sql } from 'drizzle-orm';
import { getDb, getDbHandle, onWorkerExit } from './startup';
import { log } from '../log';
import { reloadSafe } from '../reloadSafe';

/** How long a client is asked to wait before trying a write again. */
export const RETRY_AFTER_SECONDS = 5;
const PROBE_MS = 1_000;

/**
 * postgres.js's own codes for a connection that is not there, and the socket's. Not ECONNRESET or
 * EPIPE: a client going away mid-request raises those too (the driver reports its own resets as
 * CONNECTION_CLOSED).
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** The first code in an error's chain of causes (drizzle wraps the driver's error). */
function codeOf(error: unknown): string {
  for (let e = error as { code?: unknown; cause?: unknown } | null | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return '';
}

/**
 * True when an error says the database is not there (rather than that a query was wrong): the
 * connection codes above, SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server is
 * shutting down or starting).
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | null | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
    // A connect attempt to several addresses fails with all of them (Node's AggregateError).
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnreachable(inner))) return true;
  }
  return false;
}

// Kept across a module reload (npm run dev): one probe, and what it last found.
const state = reloadSafe('dbHealth', (): { away: boolean; since: number; probe?: NodeJS.Timeout } => ({ away: false, since: 0 }));
const listeners = new Set<(away: boolean) => void>();

/** True while the database is known to be unreachable. */
export function databaseAway(): boolean {
  return state.away;
}

/** Hears the database going away and coming back. */
export function onDatabaseHealth(listener: (away: boolean) => void): void {
  listeners.add(listener);
}

function set(away: boolean) {
  if (state.away === away) return;
  state.away = away;
  state.since = Date.now();
  log(away ? 'warn' : 'info', away ? 'database_away' : 'database_back');
  for (const listener of listeners) listener(away);
}

/**
 * Takes note of a failure: when it says the database is away, marks it so and starts asking it
 * again every second. Returns whether it did.
 */
export function noteDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnreachable(error)) return false;
  markDatabaseAway(error);
  return true;
}

/**
 * Marks the database away for a reason known without a query (PGlite's worker process ended), and
 * starts asking it again every second until it answers.
 */
export function markDatabaseAway(error: unknown): void {
  if (!state.away) log('warn', 'database_unreachable', { error: String(error), cause: String((error as Error)?.cause ?? ''), code: codeOf(error) });
  set(true);
  if (!state.probe) {
    state.probe = setInterval(() => {
      everyConnection().then(
        () => {
          clearInterval(state.probe);
          state.probe = undefined;
          set(false);
        },
        () => {},
      );
    }, PROBE_MS);
    state.probe.unref();
  }
}

/** Asks the database once; marks it away when it does not answer. */
export async function probeDatabase(): Promise<void> {
  try {
    await (await getDb()).execute(sql`select 1`);
  } catch (error) {
    noteDatabaseFailure(error);
  }
}

/**
 * Asks on every connection of the pool at once. A connection the database dropped while it was
 * away may still look open until it is written to; this finds each of them (failing this round,
 * after which the driver connects it again), so the first requests after the return do not.
 */
async function everyConnection(): Promise<void> {
  const handle = await getDbHandle();
  const size = Math.max(1, Number((handle.sql.options as { max?: unknown }).max) || 1);
  await Promise.all(Array.from({ length: size }, () => handle.db.execute(sql`select 1`)));
}

onWorkerExit(markDatabaseAway);
