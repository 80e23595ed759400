import type { APIRoute } from 'astro';
import { sql } from 'drizzle-orm';
import { getDb } from '../server/db/startup';
import { availabilityView } from '../server/availability';
import { databaseAway, noteDatabaseFailure } from '../server/db/health';
import { clock } from '../server/clock';
import { log } from '../server/log';

/** Readiness: the database is open, migrated and answering, and the availability index is built. */
export const GET: APIRoute = async () => {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    // Without the index the listings still answer from the database, so this never fails readiness.
    // The server's own "now" (src/server/clock.ts): an index built for another business day than the
    // one the listing asks about would be read once and thrown away by the first request.
    await availabilityView(db, clock.now());
    // Answered, but the probe has not seen it back yet: still not ready for a moment.
    if (databaseAway()) throw new Error('database away');
    return new Response(JSON.stringify({ status: 'ready' }), { headers });
  } catch (error) {
    noteDatabaseFailure(error);
    log('error', 'not_ready', { error: String(error) });
    return new Response(JSON.stringify({ status: 'unavailable' }), { status: 503, headers });
  }
};
