/**
 * Watches (空席通知): made by a signed-in diner or by a guest with an e-mail address, listed and
 * cancelled by their owner (the account, or the device that made a guest's watch), ended when
 * their window ends. A guest's watch mails nothing until the link mailed to its address is used,
 * so nobody can have Sugu mail a stranger; each diner or address holds at most
 * WATCHES_ACTIVE_MAX active watches, and making them is rate-limited.
 */
import { and, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/types';
import { areas, stores, watches } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { addressKey, consume, LIMITS, recipientKey } from '../http/rateLimit';
import { hashToken, newToken } from '../sessions';
import { queueMail } from '../mail/outbox';
import { isEmailVerified } from '../emailVerification';
import { bookableDates, businessDate, businessDayRange, storeDaySlots } from '../availability';
import type { T } from '../../i18n';
import { addTokyoDays, MINUTE_MS } from '../../lib/datetime';
import { WATCH_DEFAULT_MINUTES, WATCHES_ACTIVE_MAX } from '../../lib/contract/limits';
import type { WatchInput } from '../../lib/contract/watches';
import { watchAdded, watchRemoved } from './matcher';
import { clock } from '../clock';
import { announceWatch } from './feed';
import type { Owner } from './owner';

export type WatchRow = typeof watches.$inferSelect;
export type { Owner };

const fieldError = (t: T, field: string, key: Parameters<T>[0]) => new ApiError(400, 'validation_failed', 'validation.failed', { fields: { [field]: t(key) } });

/** The window: from now (or `from`) for an hour (or until `until`), inside the bookable days. */
function windowOf(t: T, input: WatchInput, now: Date): { from: Date; until: Date } {
  const from = input.from ? new Date(input.from) : now;
  const until = input.until ? new Date(input.until) : new Date(Math.max(from.getTime(), now.getTime()) + WATCH_DEFAULT_MINUTES * MINUTE_MS);
  if (until.getTime() <= now.getTime()) throw fieldError(t, 'until', 'watch.error.past');
  if (from.getTime() < now.getTime() - MINUTE_MS) throw fieldError(t, 'from', 'watch.error.past');
  if (until.getTime() <= from.getTime()) throw fieldError(t, 'until', 'watch.error.order');
  const horizon = businessDayRange(bookableDates(now).at(-1)!).end;
  if (until.getTime() > horizon.getTime()) throw fieldError(t, 'until', 'watch.error.tooFar');
  return { from: new Date(Math.max(from.getTime(), now.getTime())), until };
}

/**
 * A store's watch is a promise to tell of a start freed in its window: a window in which the store
 * takes no start at all (closed that day, its last start gone, outside its hours) could never be
 * kept, and is refused with the reason.
 */
async function checkWindowOpens(db: Db, t: T, storeId: number, party: number, from: Date, until: Date, now: Date): Promise<void> {
  const first = businessDate(from);
  for (let day = first; day <= businessDate(until); day = addTokyoDays(day, 1)) {
    const starts = (await storeDaySlots(db, storeId, day, party, now)) ?? [];
    if (starts.some((s) => s.start.getTime() >= from.getTime() && s.start.getTime() <= until.getTime())) return;
  }
  // Why not, told by the window's first day as it was before the clock passed any of it.
  const wholeDay = (await storeDaySlots(db, storeId, first, party, businessDayRange(first).start)) ?? [];
  if (!wholeDay.length) throw fieldError(t, 'from', 'watch.error.closedDay');
  const last = wholeDay.at(-1)!.start;
  throw fieldError(t, 'from', first === businessDate(now) && now.getTime() > last.getTime() ? 'watch.error.dayOver' : 'watch.error.outsideHours');
}

/** Makes a watch; a guest's gets the device's token (a new one, returned once, for a new device) and a confirmation mail. */
export async function createWatch(
  db: Db,
  t: T,
  input: WatchInput,
  who: { kind: 'user'; userId: number; email: string } | { kind: 'guest'; deviceToken?: string | null },
  client: { ip: string; origin: string; locale: string },
  now = clock.now(),
): Promise<{ watch: WatchRow; deviceToken?: string }> {
  const email = who.kind === 'user' ? who.email : input.email;
  if (!email) throw fieldError(t, 'email', 'validation.email');
  const { from, until } = windowOf(t, input, now);
  if (input.store_id !== undefined && !(await db.select({ id: stores.id }).from(stores).where(eq(stores.id, input.store_id))).length) {
    throw fieldError(t, 'store_id', 'watch.error.unknownStore');
  }
  if (input.store_id !== undefined) await checkWindowOpens(db, t, input.store_id, input.party_size, from, until, now);
  if (input.area_id !== undefined && !(await db.select({ id: areas.id }).from(areas).where(eq(areas.id, input.area_id))).length) {
    throw fieldError(t, 'area_id', 'watch.error.unknownArea');
  }
  const mine = who.kind === 'user' ? eq(watches.userId, who.userId) : sql`lower(${watches.email}) = lower(${email})`;
  const [{ n }] = (await db
    .select({ n: count() })
    .from(watches)
    .where(and(mine, isNull(watches.cancelledAt), gt(watches.endsAt, now)))) as [{ n: number }];
  if (n >= WATCHES_ACTIVE_MAX) throw new ApiError(409, 'too_many_watches', 'watch.error.tooMany');
  await consume(db, [
    { key: addressKey('watch-ip', client.ip), limit: LIMITS.watchPerIp },
    ...(who.kind === 'guest' ? [{ key: recipientKey('watch-email', email), limit: LIMITS.watchPerEmail }] : []),
  ]);
  // One token per device: a guest's later watches join the ones the device already holds. Only a
  // token the server issued is kept, so no client chooses (a guessable) one.
  const known =
    who.kind === 'guest' && who.deviceToken
      ? await db
          .select({ id: watches.id })
          .from(watches)
          .where(eq(watches.deviceTokenHash, hashToken(who.deviceToken)))
          .limit(1)
      : [];
  const deviceToken = who.kind === 'guest' ? (known.length ? who.deviceToken! : newToken()) : undefined;
  const confirmToken = who.kind === 'guest' ? newToken() : undefined;
  // An account's address is confirmed by its own verification: until then its watches wait, and
  // start when the link is used (src/server/emailVerification.ts), so no one has alerts mailed to
  // an address they signed up with but do not read.
  const confirmed = who.kind === 'user' && (await isEmailVerified(db, who.userId));
  const [watch] = await db
    .insert(watches)
    .values({
      userId: who.kind === 'user' ? who.userId : null,
      email,
      deviceTokenHash: deviceToken ? hashToken(deviceToken) : null,
      confirmTokenHash: confirmToken ? hashToken(confirmToken) : null,
      confirmedAt: confirmed ? now : null,
      storeId: input.store_id ?? null,
      areaId: input.store_id === undefined ? (input.area_id ?? null) : null,
      genre: input.store_id === undefined ? (input.genre ?? null) : null,
      keyword: input.store_id === undefined ? input.keyword?.trim() || null : null,
      partySize: input.party_size,
      startsFrom: from,
      endsAt: until,
      locale: client.locale,
    })
    .returning();
  if (confirmToken) {
    const link = `${client.origin}/watches/confirm?token=${confirmToken}`;
    await queueMail(db, {
      to: email,
      subject: t('watch.mail.confirm.subject'),
      text: t('watch.mail.confirm.body', { link }),
      locale: client.locale,
      kind: 'watch_confirm',
    });
  }
  watchAdded(db, watch!);
  await announceWatch(db, watch!.id);
  return { watch: watch!, deviceToken };
}

/** Confirms a guest's address from the mailed link; false when the link is unknown or used. */
export async function confirmWatch(db: Db, token: string, now = clock.now()): Promise<boolean> {
  const [row] = await db
    .update(watches)
    .set({ confirmedAt: now, confirmTokenHash: null })
    .where(and(eq(watches.confirmTokenHash, hashToken(token)), isNull(watches.cancelledAt)))
    .returning();
  if (row) {
    watchAdded(db, row);
    await announceWatch(db, row.id);
  }
  return Boolean(row);
}

const ownedBy = (owner: Owner) =>
  owner.kind === 'user' ? eq(watches.userId, owner.userId) : and(isNull(watches.userId), eq(watches.deviceTokenHash, hashToken(owner.token)));

/** The owner's watches that have not ended, soonest first. */
export function listWatches(db: Db, owner: Owner, now = clock.now()): Promise<WatchRow[]> {
  return db
    .select()
    .from(watches)
    .where(and(ownedBy(owner), isNull(watches.cancelledAt), gt(watches.endsAt, now)))
    .orderBy(watches.startsFrom, watches.id);
}

/** Cancels the owner's watch; someone else's is not found. */
export async function cancelWatch(db: Db, id: number, owner: Owner, now = clock.now()): Promise<void> {
  const [row] = await db
    .update(watches)
    .set({ cancelledAt: now })
    .where(and(eq(watches.id, id), ownedBy(owner)))
    .returning({ id: watches.id });
  if (!row) throw notFound();
  watchRemoved(db, id);
  await announceWatch(db, id);
}

/** Whether the owner has a watch that has not ended (pages then listen for its alerts). */
export async function hasActiveWatch(db: Db, owner: Owner, now = clock.now()): Promise<boolean> {
  const rows = await db
    .select({ id: watches.id })
    .from(watches)
    .where(and(ownedBy(owner), isNull(watches.cancelledAt), gt(watches.endsAt, now)))
    .limit(1);
  return rows.length > 0;
}

/** A watch as its list shows it: what it watches (the store's or the area's name) and until when. */
export type WatchView = WatchRow & { storeName: string | null; areaName: string | null };

/** The owner's watches that have not ended, with the names of what they watch. */
export async function listWatchViews(db: Db, owner: Owner, now = clock.now()): Promise<WatchView[]> {
  const rows = await listWatches(db, owner, now);
  const storeIds = [...new Set(rows.flatMap((w) => (w.storeId === null ? [] : [w.storeId])))];
  const areaIds = [...new Set(rows.flatMap((w) => (w.areaId === null ? [] : [w.areaId])))];
  const [storeNames, areaNames] = await Promise.all([
    storeIds.length ? db.select({ id: stores.id, name: stores.name }).from(stores).where(inArray(stores.id, storeIds)) : [],
    areaIds.length ? db.select({ id: areas.id, name: areas.name }).from(areas).where(inArray(areas.id, areaIds)) : [],
  ]);
  const name = (list: { id: number; name: string }[], id: number | null) => list.find((r) => r.id === id)?.name ?? null;
  return rows.map((w) => ({ ...w, storeName: name(storeNames, w.storeId), areaName: name(areaNames, w.areaId) }));
}
