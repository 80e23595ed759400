/**
 * The data platform on both engines (PGlite in a worker, PostgreSQL): migrations, seed,
 * the no-double-booking exclusion constraints, keyword search terms and the DATA_DIR lock.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { and, arrayContains, asc, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { bookings, stores, storeTables, users } from '../../src/server/db/schema';
import { migrationsFolder, runMigrations } from '../../src/server/db/migrate';
import { seedDemo } from '../../src/server/db/seed';
import { searchQueryTerms } from '../../src/server/db/searchTerms';
import { verifyPassword } from '../../src/server/passwords';
import { ENGINES, forEachEngine, openTestDb, pgCode, type TestDb } from '../helpers/db';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Friday 20:07 JST: dinner time, late-night shops open.
const NOW = new Date('2026-11-20T20:07:00+09:00');

const storeSnapshot = (h: TestDb) =>
  h.sql`select id, area_id, name, name_kana, genre, address, station, walk_minutes, lat, lng, phone,
          budget_min, budget_max, description, photos, stay_minutes, cancellation_policy, tags,
          search_terms, created_at from stores order by id`;

function expectConflict(err: unknown) {
  expect(err, 'insert should have failed').toBeDefined();
  const e = err as { code?: string; cause?: { code?: string } };
  expect(e.cause?.code ?? e.code).toBe('23P01');
  expect(pgCode(err)).toBe('23P01');
}

describe.each(ENGINES)('migrations [%s]', (engine) => {
  let h: TestDb | undefined;
  afterAll(() => h?.close());

  it('apply to an empty database and are idempotent', async () => {
    h = await openTestDb(engine, { migrate: false });
    await runMigrations(h);
    await runMigrations(h);
    const [{ n }] = await h.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    // Every migration of the journal, each once.
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(journal.entries.length).toBeGreaterThanOrEqual(3);
    expect(n).toBe(journal.entries.length);
    const ext = await h.sql<{ extname: string }[]>`select extname from pg_extension order by 1`;
    expect(ext.map((e) => e.extname)).toEqual(expect.arrayContaining(['btree_gist', 'cube', 'earthdistance', 'pg_trgm']));
    const cons = await h.sql<{ conname: string }[]>`select conname from pg_constraint where contype = 'x' order by 1`;
    expect(cons.map((c) => c.conname)).toEqual(['bookings_no_overlap_per_table', 'bookings_no_overlap_per_user_store']);
    const idx = await h.sql<{ indexname: string }[]>`select indexname from pg_indexes where tablename = 'stores'`;
    expect(idx.map((i) => i.indexname)).toEqual(expect.arrayContaining(['stores_search_terms_gin', 'stores_area_location_gist', 'stores_location_gist']));
  }, 180_000); // five migrations twice on a fresh database: minutes on a busy 2-core machine
});

forEachEngine(
  'seeded database',
  (get, engine) => {
    it('has the demo areas, stores, tables and hours', async () => {
      const { sql: q } = get();
      const [c] = await q<{ areas: number; stores: number; bookings: number }[]>`
        select (select count(*)::int from areas) as areas, (select count(*)::int from stores) as stores,
               (select count(*)::int from bookings) as bookings`;
      expect(c!.areas).toBeGreaterThanOrEqual(8);
      expect(c!.stores).toBeGreaterThanOrEqual(250);
      expect(c!.bookings).toBeGreaterThan(1000);

      const [t] = await q<{ min: number; max: number; without: number }[]>`
        select min(n)::int as min, max(n)::int as max,
               (select count(*)::int from stores s where not exists (select 1 from store_tables t where t.store_id = s.id)) as without
        from (select count(*) as n from store_tables group by store_id) x`;
      expect(t!.without).toBe(0);
      expect(t!.min).toBeGreaterThanOrEqual(2);
      expect(t!.max).toBeLessThanOrEqual(12);

      const [hrs] = await q<{ all_day: number; late: number; no_hours: number }[]>`
        select
          (select count(*)::int from (select store_id from store_hours where opens_min = 0 and closes_min = 1440
             group by store_id having count(distinct weekday) = 7) a) as all_day,
          (select count(distinct store_id)::int from store_hours where closes_min > 1440) as late,
          (select count(*)::int from stores s where not exists (select 1 from store_hours h where h.store_id = s.id)) as no_hours`;
      expect(hrs!.no_hours).toBe(0);
      // about 8–10 % open 24 hours, so the listing is never empty
      expect(hrs!.all_day / c!.stores).toBeGreaterThanOrEqual(0.07);
      expect(hrs!.late).toBeGreaterThan(20);

      const [s] = await q<{ name: string; name_kana: string; phone: string; photos: Array<{ src: string }> }[]>`
        select name, name_kana, phone, photos from stores order by id limit 1`;
      expect(s!.name_kana).toMatch(/^[\u30A0-\u30FF\u3040-\u309F ・]+$/);
      expect(s!.phone).toMatch(/^03-\d{4}-\d{4}$/);
      expect(s!.photos[0]!.src).toMatch(/^\/photos\/[a-z_]+-\d\.svg$/);
    });

    it('has confirmed bookings on 15-minute marks, some stores full right now', async () => {
      const { sql: q } = get();
      const [r] = await q<{ misaligned: number; full_now: number }[]>`
        select
          (select count(*)::int from bookings where extract(epoch from starts_at)::bigint % 900 <> 0) as misaligned,
          (select count(*)::int from stores s where not exists (
              select 1 from store_tables t where t.store_id = s.id and not exists (
                select 1 from bookings b where b.table_id = t.id and b.status = 'confirmed'
                  and tstzrange(b.starts_at, b.ends_at) && tstzrange(${NOW}::timestamptz, ${NOW}::timestamptz + interval '75 minutes')))
          ) as full_now`;
      expect(r!.misaligned).toBe(0);
      expect(r!.full_now).toBeGreaterThan(0);
    });

    it('has the demo account, with its password, bookings and favourites', async () => {
      const { db, sql: q } = get();
      const [u] = await db.select().from(users).where(sql`lower(${users.email}) = 'demo@sugu.jp'`);
      expect(u).toBeDefined();
      expect(u!.name).toBe('山田 花子');
      expect(u!.nameKana).toBe('ヤマダ ハナコ');
      expect(u!.phone).toBe('090-1234-5678');
      expect(u!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(u!.passwordHash, 'sugu-demo-2026')).toBe(true);
      expect(await verifyPassword(u!.passwordHash, 'wrong-password')).toBe(false);
      const [b] = await q<{ past: number; future: number; favs: number }[]>`
        select count(*) filter (where starts_at < ${NOW})::int as past, count(*) filter (where starts_at > ${NOW})::int as future,
               (select count(*)::int from favourites where user_id = ${u!.id}) as favs
        from bookings where user_id = ${u!.id}`;
      expect(b!.past).toBeGreaterThanOrEqual(2);
      expect(b!.future).toBeGreaterThanOrEqual(2);
      expect(b!.favs).toBeGreaterThanOrEqual(2);
    });

    it('seeding again adds nothing', async () => {
      const h = get();
      const before = await h.sql`select (select count(*) from stores) s, (select count(*) from bookings) b, (select count(*) from users) u`;
      const r = await seedDemo(h.db, { now: NOW });
      expect(r.seeded).toBe(false);
      const after = await h.sql`select (select count(*) from stores) s, (select count(*) from bookings) b, (select count(*) from users) u`;
      expect(after).toEqual(before);
    });

    it('is deterministic: the same seed gives identical stores, hours, tables and bookings', async () => {
      const h = get();
      const other = await openTestDb(engine, { seed: true, now: NOW });
      try {
        expect(await storeSnapshot(other)).toEqual(await storeSnapshot(h));
        const hours = (x: TestDb) => x.sql`select store_id, weekday, opens_min, closes_min from store_hours order by id`;
        expect(await hours(other)).toEqual(await hours(h));
        const tables = (x: TestDb) => x.sql`select id, store_id, label, kind, min_party, max_party from store_tables order by id`;
        expect(await tables(other)).toEqual(await tables(h));
        const bks = (x: TestDb) =>
          x.sql`select code, store_id, table_id, party_size, starts_at, ends_at, status from bookings where user_id is null order by id`;
        expect(await bks(other)).toEqual(await bks(h));
      } finally {
        await other.close();
      }
    }, 180_000); // a second full seed: minutes on a busy 2-core machine

    describe('exclusion constraints', () => {
      const T0 = new Date('2031-01-10T19:00:00+09:00');
      const at = (min: number) => new Date(T0.getTime() + min * 60_000);
      let n = 0;
      const code = () => `SG-T${engine === 'pglite' ? 'L' : 'P'}${String(++n).padStart(4, '0')}`;

      async function aTable(h: TestDb, offset = 0) {
        const [t] = await h.db
          .select({ id: storeTables.id, storeId: storeTables.storeId })
          .from(storeTables)
          .orderBy(asc(storeTables.id))
          .offset(offset)
          .limit(1);
        return t!;
      }

      it('rejects an overlapping confirmed booking on the same table with 23P01', async () => {
        const h = get();
        const t = await aTable(h);
        const base = { storeId: t.storeId, tableId: t.id, partySize: 2, guestName: 'テスト 太郎' };
        await h.db.insert(bookings).values({ ...base, code: code(), startsAt: at(0), endsAt: at(120) });
        let err: unknown;
        try {
          await h.db.insert(bookings).values({ ...base, code: code(), startsAt: at(60), endsAt: at(180) });
        } catch (e) {
          err = e;
        }
        expectConflict(err);
        // Touching periods do not overlap ([) ranges).
        await h.db.insert(bookings).values({ ...base, code: code(), startsAt: at(120), endsAt: at(240) });
      });

      it('ignores cancelled bookings, and frees the slot when one is cancelled', async () => {
        const h = get();
        const t = await aTable(h, 1);
        const base = { storeId: t.storeId, tableId: t.id, partySize: 2, guestName: 'テスト 花子' };
        const [first] = await h.db
          .insert(bookings)
          .values({ ...base, code: code(), startsAt: at(0), endsAt: at(120) })
          .returning({ id: bookings.id });
        await h.db.insert(bookings).values({ ...base, code: code(), startsAt: at(30), endsAt: at(150), status: 'cancelled' });
        await h.db.update(bookings).set({ status: 'cancelled', cancelledAt: new Date() }).where(eq(bookings.id, first!.id));
        await h.db.insert(bookings).values({ ...base, code: code(), startsAt: at(15), endsAt: at(135) });
      });

      it('lets exactly one of 20 simultaneous overlapping bookings win', async () => {
        const h = get();
        const t = await aTable(h, 2);
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) =>
            h.db.insert(bookings).values({
              storeId: t.storeId,
              tableId: t.id,
              partySize: 2,
              code: code(),
              startsAt: at(i * 5),
              endsAt: at(i * 5 + 120),
            }),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(pgCode(r.reason)).toBe('23P01');
      });

      it('rejects two overlapping bookings of one user at one store, even on different tables', async () => {
        const h = get();
        const [u] = await h.db.select({ id: users.id }).from(users).limit(1);
        const [st] = await h.sql<{ store_id: number; a: number; b: number }[]>`
          select store_id, min(id) as a, max(id) as b from store_tables group by store_id having count(*) >= 2 order by store_id limit 1`;
        const base = { storeId: st!.store_id, userId: u!.id, partySize: 2 };
        await h.db.insert(bookings).values({ ...base, tableId: st!.a, code: code(), startsAt: at(600), endsAt: at(720) });
        let err: unknown;
        try {
          await h.db.insert(bookings).values({ ...base, tableId: st!.b, code: code(), startsAt: at(630), endsAt: at(750) });
        } catch (e) {
          err = e;
        }
        expectConflict(err);
        const mine = await h.db
          .select({ id: bookings.id })
          .from(bookings)
          .where(and(eq(bookings.userId, u!.id), eq(bookings.storeId, st!.store_id), sql`${bookings.startsAt} >= ${at(0)}`));
        expect(mine).toHaveLength(1);
      });

      it('rolls back a transaction that lost the race', async () => {
        const h = get();
        const t = await aTable(h, 3);
        const base = { storeId: t.storeId, tableId: t.id, partySize: 2 };
        await h.db.insert(bookings).values({ ...base, code: code(), startsAt: at(0), endsAt: at(120) });
        const c = code();
        await expect(
          h.db.transaction(async (tx) => {
            await tx.insert(bookings).values({ ...base, code: c, startsAt: at(300), endsAt: at(420) });
            await tx.insert(bookings).values({ ...base, code: code(), startsAt: at(60), endsAt: at(180) });
          }),
        ).rejects.toSatisfy((e) => pgCode(e) === '23P01');
        expect(await h.db.select().from(bookings).where(eq(bookings.code, c))).toHaveLength(0);
      });
    });

    describe('keyword search terms', () => {
      it('finds 焼肉, 渋谷 and both together through search_terms', async () => {
        const { db } = get();
        const find = (kw: string) =>
          db
            .select({ id: stores.id, name: stores.name, genre: stores.genre, station: stores.station, areaId: stores.areaId })
            .from(stores)
            .where(arrayContains(stores.searchTerms, searchQueryTerms(kw)));
        const yakiniku = await find('焼肉');
        expect(yakiniku.length).toBeGreaterThan(5);
        for (const s of yakiniku) expect(s.genre === 'yakiniku' || s.name.includes('焼肉')).toBe(true);
        const shibuya = await find('渋谷');
        expect(shibuya.length).toBeGreaterThan(20);
        const both = await find('渋谷 焼肉');
        expect(both.length).toBeGreaterThan(0);
        expect(both.length).toBeLessThan(yakiniku.length);
        // kana in either script
        expect((await find('やきにく')).length).toBeGreaterThan(0);
        expect((await find('ヤキニク')).length).toBe((await find('やきにく')).length);
      });

      it('can use the GIN index (enable_seqscan = off)', async () => {
        const { sql: q } = get();
        const plan = await q.begin(async (tx) => {
          await tx`set local enable_seqscan = off`;
          return tx<{ 'QUERY PLAN': string }[]>`explain select id from stores where search_terms @> ${searchQueryTerms('焼肉')}::text[]`;
        });
        expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('stores_search_terms_gin');
      });

      it('can use the GiST index for nearest-first order', async () => {
        const { sql: q } = get();
        const plan = await q.begin(async (tx) => {
          await tx`set local enable_seqscan = off`;
          await tx`set local enable_bitmapscan = off`;
          await tx`set local enable_sort = off`;
          return tx<{ 'QUERY PLAN': string }[]>`
            explain select id from stores where area_id = 1
            order by ll_to_earth(lat, lng) <-> ll_to_earth(35.658, 139.7016) limit 10`;
        });
        expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/stores_(area_)?location_gist/);
      });
    });

    if (engine === 'pglite') {
      it('refuses a second process on the same DATA_DIR with a clear message', async () => {
        const h = get();
        const client = path.join(ROOT, 'src/server/db/client.ts');
        const code = `
          import { openDb } from ${JSON.stringify(client)};
          try { const h = await openDb({ dataDir: ${JSON.stringify(h.location)} }); await h.close(); console.log('opened'); }
          catch (e) { console.log(e.message); process.exit(3); }`;
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const status = await new Promise<number | null>((r) => child.on('exit', r));
        expect(out).toContain(
          `Another Sugu process (pid ${process.pid}) is using DATA_DIR=${h.location}. Stop it, or set DATA_DIR to another folder, or use DATABASE_URL.`,
        );
        expect(status).toBe(3);
        // and the database is still usable here
        const [r] = await h.sql`select count(*)::int as n from stores`;
        expect(r!.n).toBeGreaterThan(0);
      });
    }
  },
  { seed: true, now: NOW },
);
