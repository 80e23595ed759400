/**
 * A real server (built, on PGlite or PostgreSQL, seeded) plus what booking tests need and cannot
 * get from other capabilities' APIs: a 24-hour store with known tables, and signed-in users
 * (sessions written the way the session module reads them).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDb } from '../../src/server/db/client';
import type { Db } from '../../src/server/db/types';
import { areas, bookings, sessions, storeHours, stores, storeTables, users } from '../../src/server/db/schema';
import { hashToken, newToken } from '../../src/server/sessions';
import { businessDate } from '../../src/server/availability';
import { addTokyoDays, tokyoInstant } from '../../src/lib/datetime';
import { startApp, type App, type Engine } from '../helpers/app';
import { createDatabase, dropDatabase } from '../helpers/postgres';
import { openAndPrepare } from '../../src/server/db/startup';
import { eq } from 'drizzle-orm';

export interface Fixture {
  storeId: number;
  /** Store with one table for up to 2, so races and "full" are easy to arrange. */
  tinyStoreId: number;
  tables: number;
  users: { id: number; email: string; cookie: string; token: string }[];
}

export const TABLES = 4;

/** Adds the test stores and two users with sessions. */
export async function prepare(db: Db): Promise<Fixture> {
  const [area] =
    (await db.select({ id: areas.id }).from(areas).limit(1)).length > 0
      ? await db.select({ id: areas.id }).from(areas).limit(1)
      : await db.insert(areas).values({ slug: 'test', name: 'テスト', nameKana: 'テスト' }).returning({ id: areas.id });
  const mkStore = async (name: string, tableSizes: Array<[kind: 'counter' | 'table' | 'private_room' | 'tatami', max: number]>) => {
    const [s] = await db
      .insert(stores)
      .values({
        areaId: area!.id,
        name,
        nameKana: 'テスト',
        genre: 'izakaya',
        address: '東京都渋谷区道玄坂1-2-3, テストビル',
        station: '渋谷',
        walkMinutes: 3,
        lat: 35.658,
        lng: 139.7016,
        phone: '03-1234-5678',
        budgetMin: 3000,
        budgetMax: 5000,
        stayMinutes: 120,
        cancellationPolicy: '前日までのキャンセルは無料です。',
      })
      .returning({ id: stores.id });
    await db.insert(storeHours).values([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ storeId: s!.id, weekday, opensMin: 0, closesMin: 1440 })));
    await db.insert(storeTables).values(tableSizes.map(([kind, max], i) => ({ storeId: s!.id, label: `T${i + 1}`, kind, minParty: 1, maxParty: max })));
    return s!.id;
  };
  const storeId = await mkStore('テスト酒場 渋谷', [
    ['table', 4],
    ['table', 4],
    ['counter', 4],
    ['private_room', 6],
  ]);
  const tinyStoreId = await mkStore('極小バー', [['counter', 2]]);
  const out: Fixture['users'] = [];
  for (const n of [1, 2]) {
    const email = `booker${n}-${crypto.randomBytes(3).toString('hex')}@example.jp`;
    // Accounts that have verified their address (booking mails reach them); tests of unverified ones sign up.
    const [u] = await db
      .insert(users)
      .values({ email, passwordHash: 'x', name: `予約 太郎${n}`, emailVerifiedAt: new Date() })
      .returning({ id: users.id });
    const token = newToken();
    await db.insert(sessions).values({ id: hashToken(token), userId: u!.id, expiresAt: new Date(Date.now() + 86_400_000) });
    out.push({ id: u!.id, email, token, cookie: `example=${token}` });
  }
  return { storeId, tinyStoreId, tables: 4, users: out };
}

/**
 * Starts a server whose database already holds the fixture, plus whatever `extend` adds to it
 * (written before the server starts: an embedded database is its server's alone while it runs).
 */
export async function startWithFixture<X extends object = object>(
  engine: Engine,
  env: Record<string, string> = {},
  extend?: (db: Db, fx: Fixture) => Promise<X>,
): Promise<{ app: App; fx: Fixture & X; cleanup(): Promise<void>; dataDir?: string; databaseUrl?: string }> {
  const fill = async (db: Db) => {
    const fx = await prepare(db);
    return { ...fx, ...((await extend?.(db, fx)) ?? ({} as X)) };
  };
  if (engine === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-booking-'));
    fs.cpSync(inject('pgliteTemplate'), dir, { recursive: true });
    const h = await openDb({ dataDir: dir });
    let fx: Fixture & X;
    try {
      fx = await fill(h.db);
    } finally {
      await h.close();
    }
    const app = await startApp('pglite', { ...env, DATA_DIR: dir });
    return { app, fx, dataDir: dir, cleanup: async () => (await app.stop(), fs.rmSync(dir, { recursive: true, force: true })) };
  }
  // PostgreSQL too is filled before its server starts, so the server's availability index holds
  // the fixture stores from its first build.
  const name = `fx_${crypto.randomBytes(6).toString('hex')}`;
  const databaseUrl = await createDatabase(inject('pgUrl'), name, inject('pgTemplate'));
  const h = await openAndPrepare({ databaseUrl, seed: true, max: 2 });
  let fx: Fixture & X;
  try {
    fx = await fill(h.db);
  } finally {
    await h.close();
  }
  const app = await startApp('postgres', env, { databaseUrl });
  return { app, fx, databaseUrl, cleanup: async () => (await app.stop(), await dropDatabase(inject('pgUrl'), name).catch(() => {})) };
}

/** A start at `hh:mm` Tokyo, `days` business days from today (24-hour test stores are open then). */
export function tokyoStart(days: number, hh: number, mm = 0): string {
  const date = addTokyoDays(businessDate(new Date()), days);
  return tokyoInstant(date, hh * 60 + mm).toISOString();
}

export const isoTokyo = (iso: string) => {
  const d = new Date(iso);
  return new Date(d.getTime() + 9 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+09:00');
};

export { bookings, eq };
