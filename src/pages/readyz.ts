import type { APIRoute } from 'astro';
import { sql } from 'drizzle-orm';
import { getDb } from '../server/db/client';

/** Readiness: the database is open, migrated and answering. */
export const GET: APIRoute = async () => {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return new Response(JSON.stringify({ status: 'ready' }), { headers });
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', msg: 'not_ready', error: String(error) }));
    return new Response(JSON.stringify({ status: 'unavailable' }), { status: 503, headers });
  }
};
