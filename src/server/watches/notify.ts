/**
 * Telling a watch's owner about freed starts: the database decides which instance does it (one
 * `watch_notifications` row per watch, store and start), and the mail goes at most once per watch
 * every WATCH_MAIL_GAP_MINUTES, only to a confirmed address, with links to book.
 */
import { and, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { stores, watches, watchNotifications } from '../db/schema';
import { publicOrigin } from '../config';
import { queueMail } from '../mail/outbox';
import { formatDay, formatTime, MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import { WATCH_MAIL_GAP_MINUTES } from '../../lib/contract/limits';
import { watchPaths } from '../../lib/contract/paths';
import { watchTranslator } from './translate';
import { clock } from '../clock';

export interface Freed {
  watch: { id: number };
  /** Epoch ms of the starts that became free. */
  starts: number[];
}

export async function notifyFreed(db: Db, storeId: number, freed: readonly Freed[], now: Date, origin = publicOrigin()): Promise<number> {
  let mailed = 0;
  for (const { watch, starts } of freed) {
    const won = await db
      .insert(watchNotifications)
      .values(starts.map((s) => ({ watchId: watch.id, storeId, startsAt: new Date(s) })))
      .onConflictDoNothing()
      .returning({ start: watchNotifications.startsAt });
    if (!won.length) continue;
    const [w] = await db
      .update(watches)
      .set({ lastMailedAt: now })
      .where(
        and(
          eq(watches.id, watch.id),
          isNull(watches.cancelledAt),
          isNotNull(watches.confirmedAt),
          or(isNull(watches.lastMailedAt), lte(watches.lastMailedAt, new Date(now.getTime() - WATCH_MAIL_GAP_MINUTES * MINUTE_MS))),
        ),
      )
      .returning();
    if (!w) continue;
    const [store] = await db.select({ name: stores.name }).from(stores).where(eq(stores.id, storeId));
    const t = watchTranslator(w.locale);
    const times = won.map((r) => r.start).sort((a, b) => a.getTime() - b.getTime());
    const lines = [
      t('watch.mail.freed.intro', { store: store?.name ?? '', party: t('booking.partyCount', { count: w.partySize }) }),
      '',
      ...times.map((s) => `${formatDay(s, w.locale)} ${formatTime(s)}`),
      '',
      t('watch.mail.freed.book'),
      origin + watchPaths.book(storeId, w.userId !== null, w.partySize, toTokyoIso(times[0]!)),
      '',
      t('watch.mail.freed.noHold'),
      '',
      t('watch.mail.freed.manage'),
      origin + watchPaths.list,
    ];
    await queueMail(db, {
      to: w.email,
      subject: t('watch.mail.freed.subject', { store: store?.name ?? '', time: formatTime(times[0]!) }),
      text: lines.join('\n'),
      locale: w.locale,
      kind: 'watch_freed',
    });
    mailed++;
  }
  return mailed;
}

/** Watches whose windows have ended are no longer anyone's: their rows may go after a day. */
export async function pruneWatches(db: Db, now = clock.now()): Promise<void> {
  await db.delete(watches).where(lte(watches.endsAt, sql`${new Date(now.getTime() - 24 * 60 * MINUTE_MS).toISOString()}::timestamptz`));
}
