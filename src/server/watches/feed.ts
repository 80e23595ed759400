/**
 * Watches across instances: a watch made, confirmed or cancelled through one instance is announced
 * on WATCH_CHANNEL (PostgreSQL NOTIFY, its id as payload), and every instance's LISTEN reads that
 * watch again into its matcher, so a page open on another instance hears its alerts at once. What
 * goes unheard while the LISTEN connection is down is read by the periodic reload
 * (src/server/background.ts); a page that opens a stream has its owner's watches read at once.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { getDbHandle } from '../db/startup';
import { refreshWatch } from './matcher';
import { announceHold, HOLD_CHANNEL } from './alerts';
import type { WatchAlert } from '../../lib/contract/watches';
import { log } from '../log';

export const WATCH_CHANNEL = 'sugu_watches';

/** Tells every instance (this one too) that the watch changed. */
export async function announceWatch(db: Db, id: number): Promise<void> {
  await db.execute(sql`select pg_notify(${WATCH_CHANNEL}, ${String(id)})`);
}

/**
 * On PostgreSQL, reads every announced watch again until stopped (src/server/background.ts):
 * answers how to stop listening, or nothing on PGlite (one instance, nothing to hear).
 */
export async function listenForWatches(): Promise<(() => Promise<void>) | undefined> {
  const h = await getDbHandle();
  if (h.engine !== 'postgres') return undefined;
  const { unlisten } = await h.sql.listen(WATCH_CHANNEL, (payload) => {
    const id = Number(payload);
    if (!Number.isInteger(id)) return;
    refreshWatch(h.db, id).catch((error: unknown) => log('error', 'watch_refresh_failed', { id, error: String((error as Error)?.message ?? error) }));
  });
  const held = await h.sql.listen(HOLD_CHANNEL, (payload) => {
    try {
      const { owner, alert } = JSON.parse(payload) as { owner: string; alert: WatchAlert };
      announceHold(owner, alert);
    } catch {
      // Not ours: nothing to tell.
    }
  });
  return async () => {
    await unlisten();
    await held.unlisten();
  };
}
