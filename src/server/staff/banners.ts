/**
 * Campaign banners: a store schedules a short notice (a title, a sentence, optionally a link to its
 * own page) for the diner home, shown on the business days from `starts_on` to `ends_on` (Asia/Tokyo,
 * the 05:00 boundary of every other day in Sugu). The store API and the store host's screen both
 * call these, so each rule lives here once; every write carries its audit line in its transaction.
 *
 * The diner home reads the day's banners through `homeBanners`, kept in memory per business day:
 * /home is served from memory (the availability index), must not pay a query per view, and must
 * keep working while the database is away. A write here drops this instance's copy at once; other
 * instances see it within HOME_BANNERS_TTL_MS.
 *
 * One module: the store's writes and the home page's kept copy share the schedule rules, and each
 * write drops the copy it would make stale; apart, the drop would live in another file from the
 * write that needs it.
 */
import { and, asc, count, desc, eq, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { Db, Q } from '../db/types';
import { campaignBanners, stores } from '../db/schema';
import { ApiError, notFound } from '../http/api';
import { businessDate } from '../availability';
import { databaseAway, noteDatabaseFailure } from '../db/health';
import { addTokyoDays, toTokyoIso } from '../../lib/datetime';
import { BANNER_AHEAD_DAYS_MAX, BANNER_DAYS_MAX, BANNERS_ACTIVE_MAX, BANNERS_PAST_LISTED, HOME_BANNERS_MAX } from '../../lib/contract/limits';
import type { BannerInput, BannerJson, BannerPatch } from '../../lib/contract/staff';
import type { Translate } from '../../lib/contract/messages';
import { storeOf, type StaffScope } from './access';
import { audit } from './audit';
import { clock } from '../clock';
import { reloadSafe } from '../reloadSafe';

type Row = typeof campaignBanners.$inferSelect;

/** Whether a banner shows on business day `today`, will later, or no more. */
export function bannerState(r: Pick<Row, 'startsOn' | 'endsOn'>, today: string): BannerJson['state'] {
  return r.endsOn < today ? 'past' : r.startsOn > today ? 'upcoming' : 'current';
}

const toJson = (r: Row, today: string): BannerJson => ({
  id: r.id,
  store_id: r.storeId,
  title: r.title,
  body: r.body,
  link_to_store: r.linkToStore,
  starts_on: r.startsOn,
  ends_on: r.endsOn,
  state: bannerState(r, today),
  created_at: toTokyoIso(r.createdAt),
  updated_at: toTokyoIso(r.updatedAt),
});

/** A banner as the audit keeps it. */
const auditState = (r: Pick<Row, 'title' | 'body' | 'linkToStore' | 'startsOn' | 'endsOn'>) => ({
  title: r.title,
  body: r.body,
  link_to_store: r.linkToStore,
  starts_on: r.startsOn,
  ends_on: r.endsOn,
});

/** Days from `a` to `b`, both `YYYY-MM-DD`. */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

const refused = (t: Translate, field: string, key: string, params?: Record<string, string | number>) =>
  new ApiError(400, 'validation_failed', 'validation.failed', { fields: { [field]: t(key, params) } });

/**
 * The days' rules, with `today` the business day: in order, not ended, not started in the past (a banner
 * already showing keeps its first day), not further ahead than BANNER_AHEAD_DAYS_MAX, in order,
 * and no longer than BANNER_DAYS_MAX.
 */
function checkDays(t: Translate, startsOn: string, endsOn: string, today: string, keptStart?: string) {
  if (endsOn < startsOn) throw refused(t, 'ends_on', 'store.validation.bannerDaysOrder');
  if (endsOn < today) throw refused(t, 'ends_on', 'store.validation.bannerEnded');
  if (startsOn < today && startsOn !== keptStart) throw refused(t, 'starts_on', 'store.validation.bannerStartPast');
  if (daysBetween(today, startsOn) > BANNER_AHEAD_DAYS_MAX) throw refused(t, 'starts_on', 'store.validation.bannerTooFar', { days: BANNER_AHEAD_DAYS_MAX });
  if (daysBetween(startsOn, endsOn) + 1 > BANNER_DAYS_MAX) throw refused(t, 'ends_on', 'store.validation.bannerTooLong', { days: BANNER_DAYS_MAX });
}

/** Refuses one more banner that has not ended when the store has as many as it may. */
async function checkRoom(q: Q, storeId: number, today: string, except?: number) {
  const [row] = await q
    .select({ n: count() })
    .from(campaignBanners)
    .where(and(eq(campaignBanners.storeId, storeId), gte(campaignBanners.endsOn, today), except === undefined ? undefined : ne(campaignBanners.id, except)));
  if ((row?.n ?? 0) >= BANNERS_ACTIVE_MAX) throw new ApiError(409, 'too_many_banners', 'store.error.tooManyBanners', { params: { max: BANNERS_ACTIVE_MAX } });
}

/** The store's banners: current and upcoming, earliest first, then the latest past ones. */
export async function listBanners(q: Q, storeId: number, now = clock.now()): Promise<BannerJson[]> {
  const today = businessDate(now);
  const [coming, past] = await Promise.all([
    q
      .select()
      .from(campaignBanners)
      .where(and(eq(campaignBanners.storeId, storeId), gte(campaignBanners.endsOn, today)))
      .orderBy(asc(campaignBanners.startsOn), asc(campaignBanners.id)),
    q
      .select()
      .from(campaignBanners)
      .where(and(eq(campaignBanners.storeId, storeId), lt(campaignBanners.endsOn, today)))
      .orderBy(desc(campaignBanners.endsOn), desc(campaignBanners.id))
      .limit(BANNERS_PAST_LISTED),
  ]);
  return [...coming, ...past].map((r) => toJson(r, today));
}

/** One of the account's banners; another store's is not found. */
export async function getBanner(q: Q, scope: StaffScope, id: number, now = clock.now()): Promise<BannerJson> {
  const [row] = await q
    .select()
    .from(campaignBanners)
    .where(and(eq(campaignBanners.id, id), inArray(campaignBanners.storeId, scope.storeIds)));
  if (!row) throw notFound();
  return toJson(row, businessDate(now));
}

/** Schedules a banner at one of the account's stores. */
export async function createBanner(db: Db, t: Translate, scope: StaffScope, input: BannerInput, now = clock.now()): Promise<BannerJson> {
  const storeId = storeOf(scope, input.store_id);
  const today = businessDate(now);
  checkDays(t, input.starts_on, input.ends_on, today);
  const values = {
    title: input.title,
    body: input.body?.trim() ?? '',
    linkToStore: input.link_to_store ?? false,
    startsOn: input.starts_on,
    endsOn: input.ends_on,
  };
  const row = await db.transaction(async (tx) => {
    // One writer per store at a time, so two banners at once cannot both take the last place.
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${storeId} for update`);
    await checkRoom(tx, storeId, today);
    const [saved] = await tx
      .insert(campaignBanners)
      .values({ ...values, storeId, createdBy: scope.userId, createdAt: now, updatedAt: now })
      .returning();
    await audit(tx, scope, { action: 'banner_create', storeId, targetId: saved!.id, before: null, after: auditState(saved!) });
    return saved!;
  });
  forgetHomeBanners(db);
  return toJson(row, today);
}

/** Changes a banner's text, link or days; the days are checked with those it keeps. */
export async function updateBanner(db: Db, t: Translate, scope: StaffScope, id: number, patch: BannerPatch, now = clock.now()): Promise<BannerJson> {
  const today = businessDate(now);
  const row = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ storeId: campaignBanners.storeId })
      .from(campaignBanners)
      .where(and(eq(campaignBanners.id, id), inArray(campaignBanners.storeId, scope.storeIds)));
    if (!found) throw notFound();
    await tx.execute(sql`select id from ${stores} where ${stores.id} = ${found.storeId} for update`);
    const [old] = await tx.select().from(campaignBanners).where(eq(campaignBanners.id, id));
    if (!old) throw notFound();
    const next = {
      title: patch.title ?? old.title,
      body: patch.body === undefined ? old.body : patch.body.trim(),
      linkToStore: patch.link_to_store ?? old.linkToStore,
      startsOn: patch.starts_on ?? old.startsOn,
      endsOn: patch.ends_on ?? old.endsOn,
    };
    checkDays(t, next.startsOn, next.endsOn, today, old.startsOn);
    // A past banner brought back takes a place like a new one.
    if (old.endsOn < today) await checkRoom(tx, old.storeId, today, id);
    const [saved] = await tx
      .update(campaignBanners)
      .set({ ...next, updatedAt: now })
      .where(eq(campaignBanners.id, id))
      .returning();
    await audit(tx, scope, { action: 'banner_update', storeId: old.storeId, targetId: id, before: auditState(old), after: auditState(saved!) });
    return saved!;
  });
  forgetHomeBanners(db);
  return toJson(row, today);
}

/** Deletes a banner; another store's (or one already deleted) is not found. */
export async function deleteBanner(db: Db, scope: StaffScope, id: number): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(campaignBanners)
      .where(and(eq(campaignBanners.id, id), inArray(campaignBanners.storeId, scope.storeIds)))
      .returning();
    if (row) await audit(tx, scope, { action: 'banner_delete', storeId: row.storeId, targetId: id, before: auditState(row), after: null });
    return row;
  });
  if (!removed) throw notFound();
  forgetHomeBanners(db);
}

/** A banner as the diner home shows it. */
export interface HomeBanner {
  id: number;
  storeId: number;
  storeName: string;
  title: string;
  body: string;
  linkToStore: boolean;
}

type Active = HomeBanner & { startsOn: string; endsOn: string };

/**
 * At most `max` of the day's banners, fairly: one banner per store (a store's several take turns
 * each time it comes round), and the stores take turns by the day too, so over the days every
 * store is shown as often as any other and each of its banners in turn. The same day always gives the same choice.
 */
export function pickBanners<B extends { id: number; storeId: number }>(active: readonly B[], date: string, max = HOME_BANNERS_MAX): B[] {
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  const byStore = new Map<number, B[]>();
  for (const b of [...active].sort((a, b) => a.id - b.id)) {
    const list = byStore.get(b.storeId) ?? [];
    list.push(b);
    byStore.set(b.storeId, list);
  }
  const storeIds = [...byStore.keys()].sort((a, b) => a - b);
  const n = storeIds.length;
  const shown = Math.min(max, n);
  // The stores in a ring, `shown` further each day: place p is store p mod n on its
  // floor(p / n)-th turn, and each turn shows that store's next banner.
  return Array.from({ length: shown }, (_, i) => {
    const place = day * shown + i;
    const list = byStore.get(storeIds[place % n]!)!;
    return list[Math.floor(place / n) % list.length]!;
  });
}

/** How long an instance may show the day's banners before reading them again (another instance's writes). */
export const HOME_BANNERS_TTL_MS = 60_000;

type Cached = { date: string; at: number; picked: Promise<HomeBanner[]> };
type HomeState = { entries: WeakMap<Db, Cached>; kept: WeakMap<Db, Active[]> };
// Kept across a module reload (npm run dev): one cache.
const home = reloadSafe('homeBanners', (): HomeState => ({ entries: new WeakMap(), kept: new WeakMap() }));

function forgetHomeBanners(db: Db) {
  home.entries.delete(db);
}

/** The banners not ended on `today` and begun by the next day, with their store's name. */
async function readActive(db: Db, today: string): Promise<Active[]> {
  return db
    .select({
      id: campaignBanners.id,
      storeId: campaignBanners.storeId,
      storeName: stores.name,
      title: campaignBanners.title,
      body: campaignBanners.body,
      linkToStore: campaignBanners.linkToStore,
      startsOn: campaignBanners.startsOn,
      endsOn: campaignBanners.endsOn,
    })
    .from(campaignBanners)
    .innerJoin(stores, eq(stores.id, campaignBanners.storeId))
    .where(and(gte(campaignBanners.endsOn, today), lte(campaignBanners.startsOn, addTokyoDays(today, 1))));
}

const strip = ({ startsOn: _s, endsOn: _e, ...banner }: Active): HomeBanner => banner;
const showing = (rows: readonly Active[], date: string) =>
  pickBanners(
    rows.filter((r) => r.startsOn <= date && r.endsOn >= date),
    date,
  ).map(strip);

/**
 * The banners the diner home shows on the business day of `now`, from memory. While the database
 * is away (or when a read fails because it is), the banners last read are filtered by the day and
 * shown; with none read yet, none are shown: the home page never waits on banners.
 */
export function homeBanners(db: Db, now = clock.now()): Promise<HomeBanner[]> {
  const date = businessDate(now);
  const fromKept = () => showing(home.kept.get(db) ?? [], date);
  if (databaseAway()) return Promise.resolve(fromKept());
  const hit = home.entries.get(db);
  if (hit && hit.date === date && Date.now() - hit.at < HOME_BANNERS_TTL_MS) return hit.picked;
  const entry: Cached = {
    date,
    at: Date.now(),
    picked: readActive(db, date).then(
      (rows) => {
        home.kept.set(db, rows);
        return showing(rows, date);
      },
      (error: unknown) => {
        if (home.entries.get(db) === entry) home.entries.delete(db);
        if (noteDatabaseFailure(error)) return fromKept();
        throw error;
      },
    ),
  };
  home.entries.set(db, entry);
  return entry.picked;
}
