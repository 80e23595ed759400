/**
 * A short listing offers to watch its search, on both engines, with the server's clock at 18:00
 * tomorrow (tests/api/watch-fixtures.ts). The test's own area holds WATCH_SHORT_LISTING stores
 * for up to 4 and one more for up to 2, all open around the clock and free: for two, the listing
 * is longer than short and offers nothing; for four it is short (not empty), and its 「空席が出たら
 * 知らせる」 form makes a watch of that area for four, the next hour: posted as it is by a guest
 * without JavaScript (back to the listing, listed on the device), and sent to the API as the
 * page's script sends it by a signed-in diner (listed on the account page).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { App, Engine } from '../helpers/app';
import { startWithFixture, type Fixture } from './booking-fixtures';
import { watchClock, watchDay } from './watch-fixtures';
import { areas, storeHours, stores, storeTables } from '../../src/server/db/schema';
import { WATCH_DEFAULT_MINUTES, WATCH_SHORT_LISTING } from '../../src/lib/contract/limits';
import type { Db } from '../../src/server/db/types';

type Watch = {
  id: number;
  area_id: number | null;
  store_id: number | null;
  genre: string | null;
  keyword: string | null;
  party_size: number;
  from: string;
  until: string;
};

/** A new area with copies of the fixture's 24-hour store: one table each, for up to `sizes[i]`. */
async function addShortArea(db: Db, fx: Fixture, sizes: number[]): Promise<{ areaId: number; storeIds: number[] }> {
  const [area] = await db
    .insert(areas)
    .values({ slug: `short-${crypto.randomBytes(3).toString('hex')}`, name: '短冊町', nameKana: 'タンザクチョウ' })
    .returning({ id: areas.id });
  const [{ id: _id, createdAt: _c, tenantId: _t, ...copy }] = (await db.select().from(stores).where(eq(stores.id, fx.storeId))) as [typeof stores.$inferSelect];
  const storeIds: number[] = [];
  for (const [i, max] of sizes.entries()) {
    const [s] = await db
      .insert(stores)
      .values({ ...copy, areaId: area!.id, name: `短冊亭 ${i + 1}` })
      .returning({ id: stores.id });
    await db.insert(storeHours).values([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ storeId: s!.id, weekday, opensMin: 0, closesMin: 1440 })));
    await db.insert(storeTables).values({ storeId: s!.id, label: 'T1', kind: 'table', minParty: 1, maxParty: max });
    storeIds.push(s!.id);
  }
  return { areaId: area!.id, storeIds };
}

/** The listing's watch form (`data-watch-ask`) and its hidden fields, if the page offers one. */
function watchOffer(html: string): { form: string; fields: Record<string, string> } | null {
  const form = html.match(/<form[^>]*data-watch-ask[^>]*>[\s\S]*?<\/form>/)?.[0];
  if (!form) return null;
  const fields = Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')]),
  );
  return { form, fields };
}

const cardIds = (html: string) => [...html.matchAll(/data-store-id="(\d+)"/g)].map((m) => Number(m[1]));

for (const engine of ['pglite', 'postgres'] as Engine[]) {
  describe(`a short listing offers a watch [${engine}]`, () => {
    let app: App;
    let fx: Fixture & { areaId: number; storeIds: number[] };
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine, watchClock(18), (db, f) => addShortArea(db, f, [...Array(WATCH_SHORT_LISTING).fill(4), 2])));
    });
    afterAll(() => cleanup?.());

    const listing = (party: number, cookie?: string) => app.fetch(`/areas/${fx.areaId}?party=${party}`, { cookie, headers: { 'accept-language': 'ja' } });
    const watchesOf = async (cookie: string) => ((await (await app.fetch('/api/watches', { cookie })).json()) as { items: Watch[] }).items;
    const isTheAreaForFour = (w: Watch) => {
      expect(w).toMatchObject({ area_id: fx.areaId, store_id: null, genre: null, keyword: null, party_size: 4 });
      // The next hour of the server's clock.
      expect(w.from.startsWith(`${watchDay}T18:`)).toBe(true);
      expect(Date.parse(w.until) - Date.parse(w.from)).toBe(WATCH_DEFAULT_MINUTES * 60_000);
    };

    it('a listing longer than short offers no watch; a short one lists its stores and offers one', async () => {
      const long = await (await listing(2)).text();
      expect(cardIds(long).sort()).toEqual([...fx.storeIds].sort());
      expect(watchOffer(long)).toBeNull();

      const res = await listing(4);
      expect(res.status).toBe(200);
      const short = await res.text();
      expect(cardIds(short).sort()).toEqual(fx.storeIds.slice(0, WATCH_SHORT_LISTING).sort());
      expect(short).not.toContain('data-empty');
      const offer = watchOffer(short);
      expect(offer?.form).toContain('4名ですぐ入れるお店が少ないときは、空いたらお知らせします。');
      expect(offer?.form).toContain('name="email"');
      expect(offer?.fields).toEqual({
        area_id: String(fx.areaId),
        party_size: '4',
        minutes: String(WATCH_DEFAULT_MINUTES),
        next: `/areas/${fx.areaId}?party=4`,
      });
    });

    it('a guest without JavaScript posts the form as it is: back on the listing, the watch on the device', async () => {
      const { fields } = watchOffer(await (await listing(4)).text())!;
      const made = await app.fetch('/watches', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
        body: new URLSearchParams({ ...fields, email: 'short-listing@example.jp' }),
      });
      expect(made.status).toBe(303);
      expect(made.headers.get('location')).toBe(fields.next);
      const device = made.headers
        .getSetCookie()
        .find((c) => c.startsWith('sugu_watch='))!
        .split(';')[0]!;
      const [watch, ...more] = await watchesOf(device);
      expect(more).toEqual([]);
      isTheAreaForFour(watch!);
      const listed = await (await app.fetch('/booking-list', { cookie: device, headers: { 'accept-language': 'ja' } })).text();
      expect(listed).toMatch(new RegExp(`data-testid="watch-item" data-watch-id="${watch!.id}"[\\s\\S]*?短冊町`));
    });

    it('a signed-in diner’s page sends the form to the API (as its script does): the watch is on the account', async () => {
      const diner = fx.users[0]!;
      const offer = watchOffer(await (await listing(4, diner.cookie)).text())!;
      expect(offer.form).toContain('data-signed-in="true"');
      expect(offer.form).not.toContain('name="email"');
      // src/scripts/watchAsk.ts: the ids and the party as numbers, the rest as text.
      const made = await app.fetch('/api/watches', {
        method: 'POST',
        cookie: diner.cookie,
        json: { area_id: Number(offer.fields.area_id), party_size: Number(offer.fields.party_size) },
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as Watch;
      const [watch] = await watchesOf(diner.cookie);
      expect(watch!.id).toBe(id);
      isTheAreaForFour(watch!);
      expect(await (await app.fetch('/account-info', { cookie: diner.cookie })).text()).toContain(`data-testid="watch-item" data-watch-id="${id}"`);
    });
  });
}
