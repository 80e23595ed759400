/**
 * Deterministic demo data: ~300 Tokyo stores in 10 areas with hours, tables and bookings
 * relative to `now`, plus the demo account (demo@sugu.jp / sugu-demo-2026).
 *
 * Stores, hours and tables depend only on fixed PRNG seeds (identical on every run);
 * bookings depend on the seeds and `now`. Runs only when `stores` is empty.
 *
 * One module: the demo data is one deterministic sequence of draws from two seeded generators;
 * split, the order of the draws (and so every generated store) would depend on how the files call
 * each other. It is not product code.
 */
import crypto from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../passwords';
import type { Db } from './types';
import {
  areas,
  bookings,
  favourites,
  staffStores,
  storeHours,
  stores,
  storeTables,
  tenants,
  users,
  viewingHistory,
  type NewBooking,
  type NewStore,
  type NewStoreHours,
  type NewStoreTable,
  type StorePhoto,
} from './schema';
import { GENRES, type Genre, type TableKind } from '../../lib/contract/enums';
import { translatorFor } from '../../i18n';
import {
  AREAS,
  BUDGETS,
  CANCELLATION_POLICIES,
  CLOSINGS,
  COMMON_TAGS,
  DEMO_ADMIN,
  DEMO_STAFF,
  DEMO_USER,
  FEATURES,
  GENRE_WEIGHTS,
  GUEST_FAMILY,
  GUEST_GIVEN,
  NAME_PATTERNS,
  PHOTO_HEIGHT,
  PHOTO_WIDTH,
  PHOTOS_PER_GENRE,
  STAY_MINUTES,
  TABLE_KIND_WEIGHTS,
  TAG_POOL,
  type AreaDef,
} from './seed-data';
import { storeSearchTerms } from './searchTerms';
import { clock } from '../clock';

// ---------------------------------------------------------------- PRNG

/** mulberry32: small, fast, deterministic 32-bit PRNG. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly f: () => number;
  constructor(seed: number) {
    this.f = mulberry32(seed);
  }
  next(): number {
    return this.f();
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.f() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.f() < p;
  }
  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.f() * arr.length)]!;
  }
  weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): T {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let r = this.f() * total;
    for (const [v, w] of pairs) {
      r -= w;
      if (r < 0) return v;
    }
    return pairs[pairs.length - 1]![0];
  }
  /** k distinct items. */
  sample<T>(arr: readonly T[], k: number): T[] {
    const copy = [...arr];
    const out: T[] = [];
    while (out.length < k && copy.length) out.push(copy.splice(Math.floor(this.f() * copy.length), 1)[0]!);
    return out;
  }
}

export const STORE_SEED = 20260401;
export const BOOKING_SEED = 777;

// ---------------------------------------------------------------- time (Asia/Tokyo, UTC+9, no DST)

const MIN = 60_000;
const DAY = 86_400_000;
const JST_OFFSET = 9 * 3_600_000;

/** 00:00 JST of the JST calendar day containing `t` (epoch ms). */
export function jstDayStart(t: number): number {
  return Math.floor((t + JST_OFFSET) / DAY) * DAY - JST_OFFSET;
}
/** 0 = Sunday … 6, in JST. */
export function jstWeekday(t: number): number {
  return new Date(t + JST_OFFSET).getUTCDay();
}

export interface HoursRow {
  weekday: number;
  opensMin: number;
  closesMin: number;
}

/** Absolute open intervals [start, end) (epoch ms) that start on the JST day beginning at `dayStart`. */
export function openIntervalsOnDay(hours: readonly HoursRow[], dayStart: number): Array<[number, number]> {
  const wd = jstWeekday(dayStart);
  return hours
    .filter((h) => h.weekday === wd)
    .map((h) => [dayStart + h.opensMin * MIN, dayStart + h.closesMin * MIN] as [number, number])
    .sort((a, b) => a[0] - b[0]);
}

/** True when [from, to) lies inside one opening interval (yesterday's late hours included). */
export function isOpenBetween(hours: readonly HoursRow[], from: number, to: number): boolean {
  const d = jstDayStart(from);
  for (const day of [d - DAY, d]) {
    for (const [o, c] of openIntervalsOnDay(hours, day)) if (o <= from && to <= c) return true;
  }
  return false;
}

// ---------------------------------------------------------------- store generation

export interface SeedStore {
  store: Omit<NewStore, 'areaId'> & { areaSlug: string };
  hours: HoursRow[];
  tables: Array<Omit<NewStoreTable, 'storeId'>>;
}

const AREA_COUNTS: Record<string, number> = {
  shibuya: 40,
  shinjuku: 45,
  ginza: 35,
  ebisu: 25,
  roppongi: 30,
  ikebukuro: 30,
  ueno: 25,
  shimbashi: 35,
  kanda: 20,
  nakameguro: 15,
};

const BUILDINGS = ['第一ビル', '第二ビル', 'センタービル', 'スクエア', 'プラザ', '会館', 'ハイツ', 'テラス'];
const BUILDING_STEMS = ['ミナト', 'サンライズ', 'アオイ', 'ヒカリ', 'グランデ', '東和', '丸三', '富士'];

function hhmm(h: number, m = 0) {
  return h * 60 + m;
}

/** Weekly hours per genre; some late-night (closes after 24:00), some 24 hours. */
function makeHours(rng: Rng, genre: Genre, allDay: boolean): HoursRow[] {
  const days = [0, 1, 2, 3, 4, 5, 6];
  if (allDay) return days.map((weekday) => ({ weekday, opensMin: 0, closesMin: 1440 }));

  const lateP: Partial<Record<Genre, number>> = {
    izakaya: 0.45,
    korean: 0.5,
    cafe_bar: 0.8,
    ramen: 0.45,
    yakiniku: 0.25,
    yakitori: 0.25,
    chinese: 0.15,
  };
  const late = rng.chance(lateP[genre] ?? 0);
  const lateClose = rng.pick([hhmm(25), hhmm(26), hhmm(27), hhmm(28), hhmm(29)]); // 01:00–05:00

  let periods: Array<[number, number]>;
  switch (genre) {
    case 'izakaya':
      periods = rng.chance(0.3) ? [[hhmm(11, 30), hhmm(14)]] : [];
      periods.push([rng.pick([hhmm(16), hhmm(17), hhmm(17, 30)]), late ? lateClose : rng.pick([hhmm(23), hhmm(23, 30), hhmm(24)])]);
      break;
    case 'yakitori':
      periods = [[rng.pick([hhmm(17), hhmm(17, 30), hhmm(18)]), late ? rng.pick([hhmm(25), hhmm(26)]) : rng.pick([hhmm(23), hhmm(23, 30)])]];
      break;
    case 'yakiniku':
    case 'steak':
      periods = [
        [hhmm(11, 30), hhmm(15)],
        [hhmm(17), late ? rng.pick([hhmm(25), hhmm(26), hhmm(27)]) : rng.pick([hhmm(23), hhmm(23, 30)])],
      ];
      break;
    case 'sushi':
    case 'washoku':
    case 'french':
      periods = [
        [hhmm(12), hhmm(14, 30)],
        [rng.pick([hhmm(17, 30), hhmm(18)]), rng.pick([hhmm(22), hhmm(22, 30), hhmm(23)])],
      ];
      break;
    case 'ramen':
      periods = late
        ? [[hhmm(11), lateClose]]
        : rng.chance(0.5)
          ? [[hhmm(11), hhmm(23)]]
          : [
              [hhmm(11), hhmm(15)],
              [hhmm(17), hhmm(22, 30)],
            ];
      break;
    case 'italian':
      periods = [
        [hhmm(11, 30), hhmm(15)],
        [hhmm(17, 30), rng.pick([hhmm(23), hhmm(23, 30)])],
      ];
      break;
    case 'chinese':
      periods = rng.chance(0.5)
        ? [[hhmm(11), late ? hhmm(26) : hhmm(23)]]
        : [
            [hhmm(11), hhmm(15)],
            [hhmm(17), late ? hhmm(26) : hhmm(23)],
          ];
      break;
    case 'korean':
      periods = [[rng.pick([hhmm(11, 30), hhmm(17)]), late ? lateClose : hhmm(24)]];
      break;
    case 'cafe_bar':
      periods = rng.chance(0.25) ? [[hhmm(8), late ? lateClose : hhmm(23)]] : [[rng.pick([hhmm(18), hhmm(19)]), late ? lateClose : hhmm(24)]];
      break;
  }

  // One regular closing day for about half the stores (never Friday/Saturday).
  const closed = rng.chance(0.5) ? rng.pick([0, 1, 2, 3]) : -1;
  const rows: HoursRow[] = [];
  for (const weekday of days) {
    if (weekday === closed) continue;
    for (const [o, c] of periods) {
      // Late shops stay open one more hour on Friday and Saturday nights.
      const close = c > 1440 && (weekday === 5 || weekday === 6) ? Math.min(c + 60, hhmm(29)) : c;
      rows.push({ weekday, opensMin: o, closesMin: close });
    }
  }
  return rows;
}

function makeTables(rng: Rng, genre: Genre): Array<Omit<NewStoreTable, 'storeId'>> {
  const [lo, hi] = genre === 'ramen' || genre === 'sushi' ? [2, 6] : genre === 'izakaya' ? [5, 12] : [3, 10];
  const n = rng.int(lo, hi);
  const kinds: TableKind[] = [];
  for (let i = 0; i < n; i++) kinds.push(rng.weighted(TABLE_KIND_WEIGHTS[genre]));
  // Every store can seat a pair and a group of four.
  if (!kinds.some((k) => k === 'table' || k === 'tatami' || k === 'private_room')) kinds[0] = 'table';
  const order: TableKind[] = ['counter', 'table', 'tatami', 'private_room'];
  kinds.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const counters: Record<TableKind, number> = { counter: 0, table: 0, tatami: 0, private_room: 0 };
  let hasFour = false;
  const out = kinds.map((kind, i) => {
    const k = ++counters[kind];
    let minParty: number;
    let maxParty: number;
    let label: string;
    switch (kind) {
      case 'counter':
        [minParty, maxParty] = [1, 2];
        label = `カウンター${k}`;
        break;
      case 'table':
        maxParty = rng.pick([2, 4, 4, 6]);
        minParty = maxParty === 2 ? 1 : maxParty === 4 ? 2 : 3;
        label = `テーブル${k}`;
        break;
      case 'tatami':
        maxParty = rng.pick([4, 6, 8]);
        minParty = 2;
        label = `座敷${k}`;
        break;
      case 'private_room':
        maxParty = rng.pick([4, 6, 8, 10]);
        minParty = maxParty >= 8 ? 4 : 2;
        label = `個室${String.fromCharCode(64 + k)}`;
        break;
    }
    if (maxParty >= 4) hasFour = true;
    if (!hasFour && i === kinds.length - 1 && kind !== 'counter') {
      maxParty = 4;
      minParty = 2;
    }
    return { label, kind, minParty, maxParty };
  });
  return out;
}

function photoSet(rng: Rng, genre: Genre, name: string): StorePhoto[] {
  const first = rng.int(1, PHOTOS_PER_GENRE);
  const second = (first % PHOTOS_PER_GENRE) + 1;
  return [
    { src: `/photos/${genre}-${first}.svg`, width: PHOTO_WIDTH, height: PHOTO_HEIGHT, alt: `${name}の料理` },
    { src: `/photos/${genre}-${second}.svg`, width: PHOTO_WIDTH, height: PHOTO_HEIGHT, alt: `${name}の店内` },
  ];
}

/** A demo policy as the store's columns: its wording and the numbers that apply. */
const cancellation = (p: (typeof CANCELLATION_POLICIES)[number]) => ({ cancellationPolicy: p.text, cancelFreeHours: p.freeHours, cancelFeeYen: p.feeYen });

function round6(x: number) {
  return Math.round(x * 1e6) / 1e6;
}

/** The seed's stores (pure, deterministic). */
export function generateStores(): SeedStore[] {
  const rng = new Rng(STORE_SEED);
  const names = new Set<string>();
  const out: SeedStore[] = [];
  const genreWeights = GENRES.map((g) => [g, GENRE_WEIGHTS[g]] as const);
  let serial = 0;
  let allDayCount = 0;

  for (const area of AREAS) {
    const count = AREA_COUNTS[area.slug] ?? 20;
    for (let i = 0; i < count; i++) {
      const genre = rng.weighted(genreWeights);
      const { name, nameKana } = makeName(rng, genre, area, names);
      const station = rng.pick(area.stations);
      const walk = rng.weighted([
        [1, 3],
        [2, 4],
        [3, 4],
        [4, 3],
        [5, 3],
        [6, 2],
        [7, 2],
        [8, 1],
        [10, 1],
      ] as const);
      const dist = walk * 80 * (0.55 + rng.next() * 0.4);
      const angle = rng.next() * Math.PI * 2;
      const lat = round6(station.lat + (dist * Math.cos(angle)) / 111_000);
      const lng = round6(station.lng + (dist * Math.sin(angle)) / (111_000 * Math.cos((station.lat * Math.PI) / 180)));
      const stem = rng.pick(area.addresses);
      const building = rng.chance(0.75) ? ` ${rng.pick(BUILDING_STEMS)}${rng.pick(BUILDINGS)}${rng.chance(0.3) ? 'B1' : `${rng.int(1, 8)}F`}` : '';
      const address = `東京都${stem}${rng.int(1, 25)}-${rng.int(1, 18)}${building}`;
      const phone = `03-${rng.int(3200, 6999)}-${String(rng.int(0, 9999)).padStart(4, '0')}`;
      const budget = BUDGETS[genre];
      const budgetMin = rng.pick(budget.min);
      const budgetMax = Math.max(rng.pick(budget.max), budgetMin + 999);
      const feature = rng.pick(FEATURES[genre]);
      const description = `${station.name}から徒歩${walk}分。${feature}。${rng.pick(CLOSINGS)}`;
      // About 9 % open 24 hours (spread over the areas), so the listing is never empty.
      const allDay = ['izakaya', 'ramen', 'cafe_bar', 'korean', 'chinese'].includes(genre) && allDayCount < Math.round((out.length + 1) * 0.09);
      if (allDay) allDayCount++;
      const hours = makeHours(rng, genre, allDay);
      const tables = makeTables(rng, genre);
      const late = hours.some((h) => h.closesMin > 1440);
      const tags = [
        ...rng.sample(TAG_POOL[genre], 2),
        ...rng.sample(COMMON_TAGS, rng.int(1, 2)),
        ...(tables.some((t) => t.kind === 'private_room') ? ['個室あり'] : []),
        ...(allDay ? ['24時間営業'] : late ? ['深夜営業'] : []),
        ...(walk <= 3 ? ['駅近'] : []),
      ];
      const photos = photoSet(rng, genre, name);
      const createdAt = new Date(Date.UTC(2026, 0, 5, 0, 0) + serial++ * 37 * MIN);
      out.push({
        store: {
          areaSlug: area.slug,
          name,
          nameKana,
          genre,
          address,
          station: station.name,
          walkMinutes: walk,
          lat,
          lng,
          phone,
          budgetMin,
          budgetMax,
          description,
          photos,
          stayMinutes: rng.pick(STAY_MINUTES[genre]),
          ...cancellation(rng.pick(CANCELLATION_POLICIES)),
          tags,
          searchTerms: storeSearchTerms({
            name,
            nameKana,
            genre,
            // Searchable by the genre's Japanese name, as the listing shows it.
            genreLabel: translatorFor('ja')(`discovery.genre.${genre}`),
            areaName: area.name,
            areaNameKana: area.nameKana,
            station: station.name,
          }),
          createdAt,
        },
        hours,
        tables,
      });
    }
  }
  return out;
}

function makeName(rng: Rng, genre: Genre, area: AreaDef, taken: Set<string>) {
  for (let attempt = 0; ; attempt++) {
    const p = rng.pick(NAME_PATTERNS[genre]);
    const [affix, affixKana] = rng.pick(p.affixes);
    const [word, wordKana] = rng.pick(p.words);
    let name = p.position === 'before' ? `${affix}${p.sep}${word}` : `${word}${p.sep}${affix}`;
    // The reading keeps the name's word break, so that its romanised form does too (Men'ya Mangetsu).
    const kanaSep = p.sep ? ' ' : '';
    let nameKana = p.position === 'before' ? `${affixKana}${kanaSep}${wordKana}` : `${wordKana}${kanaSep}${affixKana}`;
    if (taken.has(name) || rng.chance(0.25) || attempt > 20) {
      name = `${name} ${area.name}店`;
      nameKana = `${nameKana} ${area.nameKana}テン`;
    }
    if (!taken.has(name)) {
      taken.add(name);
      return { name, nameKana };
    }
  }
}

// ---------------------------------------------------------------- bookings

const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function makeCode(rng: Rng, used: Set<string>): string {
  for (;;) {
    let c = 'SG-';
    for (let i = 0; i < 6; i++) c += CODE_ALPHABET[rng.int(0, CODE_ALPHABET.length - 1)];
    if (!used.has(c)) {
      used.add(c);
      return c;
    }
  }
}

interface Occ {
  [tableId: number]: Array<[number, number]>;
}

function isFree(occ: Occ, tableId: number, s: number, e: number) {
  return !(occ[tableId] ?? []).some(([a, b]) => a < e && s < b);
}
function occupy(occ: Occ, tableId: number, s: number, e: number) {
  (occ[tableId] ??= []).push([s, e]);
}

export interface SeedOptions {
  now?: Date;
}

export interface SeedResult {
  seeded: boolean;
  areas: number;
  stores: number;
  tables: number;
  bookings: number;
}

async function insertChunked<T>(items: T[], size: number, fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await fn(items.slice(i, i + size));
}

/** Seeds the demo data when `stores` is empty; otherwise does nothing. */
export async function seedDemo(db: Db, opts: SeedOptions = {}): Promise<SeedResult> {
  const now = (opts.now ?? clock.now()).getTime();
  const nothing: SeedResult = { seeded: false, areas: 0, stores: 0, tables: 0, bookings: 0 };

  return db.transaction(async (tx) => {
    const existing = await tx.execute(sql`select 1 from ${stores} limit 1`);
    if (existing.length > 0) return nothing;
    // Serialise concurrent seeders (PostgreSQL, several instances).
    await tx.execute(sql`lock table ${stores} in exclusive mode`);
    const again = await tx.execute(sql`select 1 from ${stores} limit 1`);
    if (again.length > 0) return nothing;

    // Areas
    const areaRows = await tx
      .insert(areas)
      .values(AREAS.map((a, i) => ({ slug: a.slug, name: a.name, nameKana: a.nameKana, sort: i + 1 })))
      .onConflictDoNothing()
      .returning({ id: areas.id, slug: areas.slug });
    const allAreas = areaRows.length === AREAS.length ? areaRows : await tx.select({ id: areas.id, slug: areas.slug }).from(areas);
    const areaId = new Map(allAreas.map((a) => [a.slug, a.id]));

    // Stores
    const gen = generateStores();
    const storeIds: number[] = [];
    await insertChunked(gen, 100, async (chunk) => {
      const rows = await tx
        .insert(stores)
        .values(chunk.map(({ store: { areaSlug, ...s } }) => ({ ...s, areaId: areaId.get(areaSlug)! })))
        .returning({ id: stores.id });
      storeIds.push(...rows.map((r) => r.id));
    });

    // Hours
    const hourRows: NewStoreHours[] = gen.flatMap((g, i) => g.hours.map((h) => ({ ...h, storeId: storeIds[i]! })));
    await insertChunked(hourRows, 2000, (c) => tx.insert(storeHours).values(c));

    // Tables
    const tableRows: NewStoreTable[] = gen.flatMap((g, i) => g.tables.map((t) => ({ ...t, storeId: storeIds[i]! })));
    const tableIds: number[] = [];
    await insertChunked(tableRows, 2000, async (c) => {
      const rows = await tx.insert(storeTables).values(c).returning({ id: storeTables.id });
      tableIds.push(...rows.map((r) => r.id));
    });
    const tablesByStore = new Map<number, Array<NewStoreTable & { id: number }>>();
    tableRows.forEach((t, i) => {
      const list = tablesByStore.get(t.storeId) ?? [];
      list.push({ ...t, id: tableIds[i]! });
      tablesByStore.set(t.storeId, list);
    });

    // Demo user
    const [demo] = await tx
      .insert(users)
      .values({
        email: DEMO_USER.email,
        passwordHash: await hashPassword(DEMO_USER.password),
        name: DEMO_USER.name,
        nameKana: DEMO_USER.nameKana,
        phone: DEMO_USER.phone,
        emailVerifiedAt: new Date(now - 90 * DAY),
        createdAt: new Date(now - 90 * DAY),
        updatedAt: new Date(now - 90 * DAY),
      })
      .returning({ id: users.id });
    const demoId = demo!.id;

    // Demo staff, for the first store open around the clock.
    const staffStoreIndex = Math.max(
      0,
      gen.findIndex((g) => g.hours.length === 7 && g.hours.every((h) => h.opensMin === 0 && h.closesMin === 1440)),
    );
    const staffStoreId = storeIds[staffStoreIndex]!;
    const [tenant] = await tx.insert(tenants).values(DEMO_STAFF.tenant).returning({ id: tenants.id });
    await tx.update(stores).set({ tenantId: tenant!.id }).where(eq(stores.id, staffStoreId));
    const [staff] = await tx
      .insert(users)
      .values({
        email: DEMO_STAFF.email,
        passwordHash: await hashPassword(DEMO_STAFF.password),
        name: DEMO_STAFF.name,
        nameKana: DEMO_STAFF.nameKana,
        role: 'staff',
        tenantId: tenant!.id,
        // The demo company's owner: it may invite further staff.
        owner: true,
        emailVerifiedAt: new Date(now),
      })
      .returning({ id: users.id });
    await tx.insert(staffStores).values({ userId: staff!.id, storeId: staffStoreId, tenantId: tenant!.id });
    // The platform's demo admin (no company).
    await tx.insert(users).values({
      email: DEMO_ADMIN.email,
      passwordHash: await hashPassword(DEMO_ADMIN.password),
      name: DEMO_ADMIN.name,
      nameKana: DEMO_ADMIN.nameKana,
      role: 'admin',
      emailVerifiedAt: new Date(now),
    });
    // Its table settings: pairs turn in 90 minutes and parties of six in 150 (others the default);
    // a counter seat, when it has one besides other tables, takes walk-ins only.
    await tx
      .update(stores)
      .set({
        turnTimes: [
          [2, 90],
          [6, 150],
        ],
      })
      .where(eq(stores.id, staffStoreId));
    const staffTables = await tx
      .select({ id: storeTables.id, kind: storeTables.kind })
      .from(storeTables)
      .where(eq(storeTables.storeId, staffStoreId))
      .orderBy(asc(storeTables.id));
    const walkIn = staffTables.length > 2 ? staffTables.find((t) => t.kind === 'counter') : undefined;
    if (walkIn) await tx.update(storeTables).set({ online: false }).where(eq(storeTables.id, walkIn.id));
    // Seeded bookings are online bookings: none at a walk-in-only seat, which stays free for the door.
    const online = (t: { id: number }) => t.id !== walkIn?.id;

    // Bookings
    const rng = new Rng(BOOKING_SEED);
    const occ: Occ = {};
    const codes = new Set<string>();
    const rows: NewBooking[] = [];
    const today = jstDayStart(now);
    const slotNow = Math.ceil(now / (15 * MIN)) * 15 * MIN;
    const storeInfo = gen.map((g, i) => ({ id: storeIds[i]!, hours: g.hours, stay: g.store.stayMinutes ?? 120 }));

    const guest = () => {
      const [f, fk] = rng.pick(GUEST_FAMILY);
      const [g, gk] = rng.pick(GUEST_GIVEN);
      const token = crypto.createHash('sha256').update(`seed-guest-${rng.next()}`).digest('hex');
      return {
        guestName: `${f} ${g}`,
        guestNameKana: `${fk} ${gk}`,
        guestPhone: `090-${rng.int(1000, 9999)}-${rng.int(1000, 9999)}`,
        guestEmail: `guest${rng.int(1000, 99999)}@example.jp`,
        guestTokenHash: token,
      };
    };
    const add = (b: Omit<NewBooking, 'code'>) => {
      rows.push({ ...b, code: makeCode(rng, codes) });
      if (b.status !== 'cancelled') occupy(occ, b.tableId, b.startsAt.getTime(), b.endsAt.getTime());
    };

    // Demo account: past and future bookings at stores open then.
    const demoPlan: Array<{ dayOffset: number; at: number; status: 'confirmed' | 'cancelled' }> = [
      { dayOffset: -21, at: hhmm(18, 30), status: 'confirmed' },
      { dayOffset: -7, at: hhmm(19), status: 'confirmed' },
      { dayOffset: -3, at: hhmm(19, 30), status: 'cancelled' },
      { dayOffset: 1, at: hhmm(19), status: 'confirmed' },
      { dayOffset: 3, at: hhmm(18), status: 'confirmed' },
    ];
    const usedDemoStores = new Set<number>();
    for (const p of demoPlan) {
      for (let tries = 0; tries < 500; tries++) {
        const s = rng.pick(storeInfo);
        if (usedDemoStores.has(s.id)) continue;
        const start = today + p.dayOffset * DAY + p.at * MIN;
        const end = start + s.stay * MIN;
        if (!isOpenBetween(s.hours, start, end)) continue;
        const table = (tablesByStore.get(s.id) ?? []).filter(online).find((t) => (t.minParty ?? 1) <= 2 && t.maxParty >= 2 && isFree(occ, t.id, start, end));
        if (!table) continue;
        usedDemoStores.add(s.id);
        const created = Math.min(start, now) - rng.int(1, 5) * DAY;
        add({
          storeId: s.id,
          tableId: table.id,
          userId: demoId,
          partySize: 2,
          startsAt: new Date(start),
          endsAt: new Date(end),
          status: p.status,
          note: p.dayOffset > 0 ? '窓側の席を希望します。' : '',
          createdAt: new Date(created),
          updatedAt: new Date(p.status === 'cancelled' ? created + DAY : created),
          cancelledAt: p.status === 'cancelled' ? new Date(created + DAY) : null,
        });
        break;
      }
    }

    // About 12% of the stores open right now are fully booked for the next hour.
    for (const s of storeInfo) {
      if (!isOpenBetween(s.hours, slotNow, slotNow + 60 * MIN)) continue;
      if (!rng.chance(0.12)) continue;
      for (const t of (tablesByStore.get(s.id) ?? []).filter(online)) {
        let start = slotNow - rng.int(0, 3) * 15 * MIN;
        while (start <= slotNow + 60 * MIN) {
          const end = start + s.stay * MIN;
          if (isFree(occ, t.id, start, end)) {
            add({
              storeId: s.id,
              tableId: t.id,
              partySize: rng.int(t.minParty ?? 1, t.maxParty),
              startsAt: new Date(start),
              endsAt: new Date(end),
              status: 'confirmed',
              ...guest(),
              createdAt: new Date(start - rng.int(1, 48) * 60 * MIN),
            });
          }
          start = end;
        }
      }
    }

    // Everyone else: random bookings today and over the next two days.
    for (const s of storeInfo) {
      const busy = 0.12 + rng.next() * 0.33;
      for (let d = 0; d < 3; d++) {
        for (const [o, c] of openIntervalsOnDay(s.hours, today + d * DAY)) {
          for (const t of (tablesByStore.get(s.id) ?? []).filter(online)) {
            let start = o + rng.int(0, 3) * 15 * MIN;
            while (start + s.stay * MIN <= c) {
              const end = start + s.stay * MIN;
              if (rng.chance(busy) && isFree(occ, t.id, start, end)) {
                const cancelled = rng.chance(0.05);
                const created = Math.min(start, now) - rng.int(1, 72) * 60 * MIN;
                add({
                  storeId: s.id,
                  tableId: t.id,
                  partySize: rng.int(t.minParty ?? 1, t.maxParty),
                  startsAt: new Date(start),
                  endsAt: new Date(end),
                  status: cancelled ? 'cancelled' : 'confirmed',
                  ...guest(),
                  createdAt: new Date(created),
                  updatedAt: new Date(cancelled ? created + 30 * MIN : created),
                  cancelledAt: cancelled ? new Date(created + 30 * MIN) : null,
                });
                start = end + rng.int(0, 4) * 15 * MIN;
              } else {
                start += rng.int(1, 4) * 15 * MIN;
              }
            }
          }
        }
      }
    }
    await insertChunked(rows, 1000, (c) => tx.insert(bookings).values(c));

    // Favourites and viewing history for the demo account.
    const favPick = new Rng(BOOKING_SEED + 1);
    const favs = favPick.sample(storeIds, 5);
    await tx.insert(favourites).values(favs.map((storeId, i) => ({ userId: demoId, storeId, createdAt: new Date(now - (i + 1) * 2 * DAY) })));
    const viewed = favPick.sample(storeIds, 8);
    await tx.insert(viewingHistory).values(viewed.map((storeId, i) => ({ userId: demoId, storeId, viewedAt: new Date(now - (i + 1) * 5 * 60 * MIN) })));

    return { seeded: true, areas: AREAS.length, stores: storeIds.length, tables: tableIds.length, bookings: rows.length };
  });
}
