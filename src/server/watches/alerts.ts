/**
 * In-page notifications of watches: whom a watch belongs to (the account, or the device that made
 * a guest's watch), and the bus on which this process's matcher announces a freed start to the
 * live streams of that owner (src/server/live.ts), and to nobody else's.
 *
 * Every instance hears every availability change and matches it against its own copy of the
 * watches; the database decides which watcher holds a freed table (src/server/watches/holds.ts),
 * and the hold is announced to its owner's streams on every instance, once per hold here.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { hashToken } from '../sessions';
import type { WatchAlert } from '../../lib/contract/watches';

/** `u:<user id>` for an account's watch, `d:<token hash>` for a guest device's. */
export const ownerKey = (o: { userId: number | null; deviceTokenHash: string | null }): string | null =>
  o.userId !== null ? `u:${o.userId}` : o.deviceTokenHash ? `d:${o.deviceTokenHash}` : null;

/** The owner key of a request: the signed-in diner, else the device's watch token. */
export const requestOwnerKey = (userId: number | null, deviceToken: string | null): string | null =>
  userId !== null ? `u:${userId}` : deviceToken ? `d:${hashToken(deviceToken)}` : null;

export const watchAlerts = new EventEmitter();
watchAlerts.setMaxListeners(0);

/** Bound of the holds remembered as announced: past it they are forgotten at once (at worst one is announced twice). */
export const SENT_MAX = 50_000;

/** Holds this process already announced (the instance that made one tells its pages, and hears it again from the feed). */
const heldSent = new Set<number>();
export const announcedHolds: ReadonlySet<number> = heldSent;

/** Tells the owner's streams on this process that a start is held for them (src/server/watches/holds.ts), once per hold. */
export function announceHold(owner: string | null, alert: WatchAlert): void {
  if (!owner || alert.hold_id === undefined || heldSent.has(alert.hold_id)) return;
  heldSent.add(alert.hold_id);
  if (heldSent.size > SENT_MAX) heldSent.clear();
  watchAlerts.emit('alert', owner, alert);
}

/** A start held for a watcher: its owner's page may be open on any instance (src/server/watches/feed.ts listens). */
export const HOLD_CHANNEL = 'sugu_watch_holds';

/** Tells the owner's pages on every instance (this one at once) that a start is held for them. */
export async function announceHoldEverywhere(db: Db, owner: string | null, alert: WatchAlert): Promise<void> {
  announceHold(owner, alert);
  if (owner) await db.execute(sql`select pg_notify(${HOLD_CHANNEL}, ${JSON.stringify({ owner, alert })})`);
}
