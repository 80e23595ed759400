/**
 * Store staff for API tests, on top of the booking fixture (tests/api/booking-fixtures.ts): two
 * companies, A owning the 24-hour test store and an evening store (17:00–23:00, one table for 4),
 * B the one-table bar, each with a staff account that signs in through the real `/api/login`
 * (A's works for both of A's stores); the booking fixture's users are the diners.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/types';
import { bookings, staffStores, storeHours, stores, storeTables, tenants, users } from '../../src/server/db/schema';
import { hashToken, newToken } from '../../src/server/sessions';
import { hashPassword } from '../../src/server/passwords';
import { startApp, type App, type Engine } from '../helpers/app';
import { startWithFixture, type Fixture } from './booking-fixtures';

export const STORE_HOST = 'https://store.example.jp';

export interface Staff {
  email: string;
  password: string;
  tenant: string;
  storeId: number;
}

export interface StaffFixture {
  staffA: Staff;
  staffB: Staff;
  /** A's second store: open 17:00–23:00 every day, one table for up to 4. */
  eveningStoreId: number;
}

/** A copy of `storeId` open 17:00–23:00 every day with one table for up to 4. */
async function addEveningStore(db: Db, storeId: number): Promise<number> {
  const [{ id: _id, createdAt: _c, tenantId: _t, ...copy }] = (await db.select().from(stores).where(eq(stores.id, storeId))) as [typeof stores.$inferSelect];
  const [s] = await db
    .insert(stores)
    .values({ ...copy, name: '夕方食堂' })
    .returning({ id: stores.id });
  await db.insert(storeHours).values([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ storeId: s!.id, weekday, opensMin: 17 * 60, closesMin: 23 * 60 })));
  await db.insert(storeTables).values({ storeId: s!.id, label: 'E1', kind: 'table', minParty: 1, maxParty: 4 });
  return s!.id;
}

async function addStaff(db: Db, storeIds: number[], label: string): Promise<Staff> {
  const storeId = storeIds[0]!;
  const tenant = `${label}-${crypto.randomBytes(3).toString('hex')}`;
  const [t] = await db
    .insert(tenants)
    .values({ slug: tenant, name: `テスト会社 ${label}` })
    .returning({ id: tenants.id });
  for (const id of storeIds) await db.update(stores).set({ tenantId: t!.id }).where(eq(stores.id, id));
  const email = `staff-${tenant}@example.jp`;
  const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
  const [u] = await db
    .insert(users)
    .values({ email, passwordHash: await hashPassword(password), name: `店員 ${label}`, role: 'staff', tenantId: t!.id, emailVerifiedAt: new Date() })
    .returning({ id: users.id });
  await db.insert(staffStores).values(storeIds.map((id) => ({ userId: u!.id, storeId: id, tenantId: t!.id })));
  return { email, password, tenant, storeId };
}

/**
 * Starts a server (STORE_HOST set) whose database holds the booking fixture and the two companies'
 * staff; `more` changes the fixture before the server starts (a fee policy, say).
 */
export function startWithStaff(engine: Engine, env: Record<string, string> = {}, more?: (db: Db, fx: Fixture) => Promise<void>) {
  return startWithFixture<StaffFixture>(engine, { STORE_HOST, ...env }, async (db: Db, fx: Fixture) => {
    await more?.(db, fx);
    const eveningStoreId = await addEveningStore(db, fx.storeId);
    return { staffA: await addStaff(db, [fx.storeId, eveningStoreId], 'a'), staffB: await addStaff(db, [fx.tinyStoreId], 'b'), eveningStoreId };
  });
}

/** Signs a staff account in; the answer's token goes in `Authorization: Bearer`. */
export async function staffLogin(app: App, staff: Staff) {
  const res = await app.fetch('/api/login', { method: 'POST', json: { email: staff.email, password: staff.password } });
  if (res.status !== 200) throw new Error(`staff sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { token: string; user_id: number; tenant: string | null; store_id: number | null; store_ids: number[] };
}

/** `Authorization: Bearer` for a staff token, answers in English (messages are compared). */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });

/**
 * For one describe: a server on `engine` (with `env`: a SUGU_CLOCK, say) with the staff fixture and
 * both companies' staff signed in. The fields are set before the first test runs.
 */
export function staffServer(engine: Engine, env: Record<string, string> = {}) {
  const s = {} as { app: App; fx: Fixture & StaffFixture; tokenA: string; tokenB: string };
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startWithStaff(engine, env);
    cleanup = started.cleanup;
    Object.assign(s, { app: started.app, fx: started.fx });
    s.tokenA = (await staffLogin(s.app, s.fx.staffA)).token;
    s.tokenB = (await staffLogin(s.app, s.fx.staffB)).token;
  });
  afterAll(() => cleanup?.());
  return s;
}

/**
 * For one describe: two instances on one PostgreSQL database, A with the staff fixture and B beside
 * it (both with STORE_HOST and `env`), so that a change made through A must reach B's streams and listing.
 */
export function twoInstances(env: Record<string, string> = {}) {
  const s = {} as { a: App; b: App; fx: Fixture & StaffFixture };
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startWithStaff('postgres', env);
    cleanup = started.cleanup;
    Object.assign(s, { a: started.app, fx: started.fx });
    s.b = await startApp('postgres', { STORE_HOST, ...env }, { databaseUrl: s.a.databaseUrl });
  });
  afterAll(async () => {
    await s.b?.stop();
    await cleanup?.();
  });
  return s;
}

/** The stores bookable now for two, nearest first from the spot where the fixture stores stand (so they lead the list). */
export async function bookableNearby(app: App): Promise<number[]> {
  const res = await app.fetch('/api/stores?lat=35.658&lng=139.7016&party=2&per_page=50');
  return ((await res.json()) as { items: { id: number }[] }).items.map((s) => s.id);
}

/**
 * The tiny store's one table taken by a guest's booking from `start` to `end`, so a party finds
 * nothing there within the hour and its queue (順番待ち) is open. `prefix` starts the booking code.
 */
export async function takeTinyTable(db: Db, fx: Fixture, start: Date, end: Date, prefix: string): Promise<void> {
  const [tiny] = await db.select({ id: storeTables.id }).from(storeTables).where(eq(storeTables.storeId, fx.tinyStoreId));
  await db.insert(bookings).values({
    code: `${prefix}-${newToken().slice(0, 10)}`,
    storeId: fx.tinyStoreId,
    tableId: tiny!.id,
    partySize: 2,
    startsAt: start,
    endsAt: end,
    guestName: '満席 太郎',
    guestNameKana: 'マンセキ タロウ',
    guestPhone: '09011112222',
    guestEmail: 'full@example.jp',
    guestTokenHash: hashToken(newToken()),
  });
}
