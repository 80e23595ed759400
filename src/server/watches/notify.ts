/**
 * Telling a watch's owner about freed starts: the database decides which instance does it (one
 * `watch_notifications` row per watch, store and start), and the mail goes at most once per watch
 * every WATCH_MAIL_GAP_MINUTES, only to a confirmed address, with links to book.
 *
 * One change may fulfil hundreds of area watches, so a change is claimed, marked and queued in one
 * transaction of two statements whatever the number of watches: mail is queued exactly when its
 * claims commit. Claims are inserted and watch rows locked in id order, so two instances working
 * on overlapping watches wait for each other instead of deadlocking.
 */
import { lte, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { watches } from '../db/schema';
import { publicOrigin } from '../config';
import { mailQueued, queueMails, type OutgoingMail } from '../mail/outbox';
import { formatTime, formatWhen, MINUTE_MS, toTokyoIso } from '../../lib/datetime';
import { WATCH_MAIL_GAP_MINUTES } from '../../lib/contract/limits';
import { watchPaths } from '../../lib/contract/paths';
import { watchTranslator } from './translate';
import { clock } from '../clock';
import { pushQueued, queuePushes } from '../push/service';

export interface Freed {
  watch: { id: number };
  /** Epoch ms of the starts that became free. */
  starts: number[];
}

/** A watch this call won the mail of, with the starts it claimed (epoch ms, soonest first). */
type Won = {
  id: number;
  email: string;
  locale: string;
  party_size: number;
  user_id: number | null;
  device_token_hash: string | null;
  store_name: string;
  starts: number[];
};

/** Records the freed starts (none already past) once across instances, and queues the mails they earn. */
export async function notifyFreed(db: Db, storeId: number, freed: readonly Freed[], now: Date, origin = publicOrigin()): Promise<number> {
  const pairs = freed
    .flatMap(({ watch, starts }) => starts.filter((s) => s > now.getTime()).map((s) => [watch.id, s] as const))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!pairs.length) return 0;
  const ids = `{${pairs.map(([id]) => id).join(',')}}`;
  const starts = `{${pairs.map(([, s]) => new Date(s).toISOString()).join(',')}}`;
  const gap = new Date(now.getTime() - WATCH_MAIL_GAP_MINUTES * MINUTE_MS).toISOString();
  const at = now.toISOString();
  const mailed = await db.transaction(async (tx) => {
    const won = await tx.execute<Won>(sql`
      with claimed as (
        insert into watch_notifications (watch_id, store_id, starts_at)
        select f.w, ${storeId}, f.s from unnest(${ids}::int[], ${starts}::timestamptz[]) as f(w, s) order by f.w, f.s
        on conflict do nothing
        returning watch_id, starts_at
      ), due as (
        select id from watches
        where id in (select watch_id from claimed) and cancelled_at is null and confirmed_at is not null and ends_at > ${at}::timestamptz
          and (last_mailed_at is null or last_mailed_at <= ${gap}::timestamptz)
        order by id for update
      ), mailed as (
        update watches w set last_mailed_at = ${at}::timestamptz from due
        where w.id = due.id and (w.last_mailed_at is null or w.last_mailed_at <= ${gap}::timestamptz)
        returning w.id, w.email, w.locale, w.party_size, w.user_id, w.device_token_hash
      )
      select m.*, (select name from stores where id = ${storeId}) as store_name,
        (select json_agg((extract(epoch from c.starts_at) * 1000)::bigint order by c.starts_at) from claimed c where c.watch_id = m.id) as starts
      from mailed m`);
    await queueMails(tx, [...won].map((w) => freedMail(w, storeId, origin)));
    // The same alert on the owner's phones that said yes, as the mail goes (once per gap).
    for (const w of won) {
      const first = new Date(Number(w.starts[0]));
      await queuePushes(tx, w.user_id !== null ? { userIds: [w.user_id] } : { deviceTokenHashes: w.device_token_hash ? [w.device_token_hash] : [] }, 'watch_freed', (locale) => {
        const t = watchTranslator(locale);
        return {
          title: t('push.watch.title', { store: w.store_name }),
          body: t('push.watch.body', { time: formatWhen(first, locale, t) }),
          url: watchPaths.book(storeId, w.user_id !== null, w.party_size, toTokyoIso(first)),
          tag: `watch-${w.id}`,
        };
      });
    }
    return won.length;
  });
  if (mailed) {
    mailQueued(db);
    pushQueued(db);
  }
  return mailed;
}

function freedMail(w: Won, storeId: number, origin: string): OutgoingMail {
  const t = watchTranslator(w.locale);
  const times = w.starts.map((s) => new Date(Number(s)));
  const lines = [
    t('watch.mail.freed.intro', { store: w.store_name, party: t('booking.partyCount', { count: w.party_size }) }),
    '',
    ...times.map((s) => formatWhen(s, w.locale, t)),
    '',
    t('watch.mail.freed.book'),
    origin + watchPaths.book(storeId, w.user_id !== null, w.party_size, toTokyoIso(times[0]!)),
    '',
    t('watch.mail.freed.noHold'),
    '',
    t('watch.mail.freed.manage'),
    origin + watchPaths.list,
  ];
  return { to: w.email, subject: t('watch.mail.freed.subject', { store: w.store_name, time: formatTime(times[0]!, t) }), text: lines.join('\n'), locale: w.locale, kind: 'watch_freed' };
}

/** Watches whose windows have ended are no longer anyone's: their rows may go after a day. */
export async function pruneWatches(db: Db, now = clock.now()): Promise<void> {
  await db.delete(watches).where(lte(watches.endsAt, sql`${new Date(now.getTime() - 24 * 60 * MINUTE_MS).toISOString()}::timestamptz`));
}
