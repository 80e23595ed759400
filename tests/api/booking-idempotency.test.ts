/**
 * `Idempotency-Key` on the booking API's creates and changes, on both engines: the same key and
 * body get the first answer again (a guest's edit token included) and make one booking; the same
 * key with another body is 422; ten at once make exactly one booking; a key is its sender's only;
 * on PostgreSQL a key sent to one instance is answered the same by another. And the booking forms
 * without JavaScript answer a booking with a redirect to its result page (post/redirect/get).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, openAppDb, startApp, type App } from '../helpers/app';
import { startWithFixture, tokyoStart, isoTokyo, type Fixture } from './booking-fixtures';
import { guestBookedSchema } from '../../src/lib/contract/responses';

type Json = Record<string, any>;
let serial = 0;
/** A guest with contact details of their own, so no test's booking is another's duplicate. */
const guest = () => {
  const n = ++serial;
  return { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-${String(3000 + n)}-${String(4000 + n)}`, email: `idem-${process.pid}-${n}@example.jp` };
};
const key = () => crypto.randomUUID();

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`Idempotency-Key [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
    });
    afterAll(() => cleanup?.());

    const as = (n: 0 | 1) => fx.users[n]!.cookie;
    const book = (n: 0 | 1, body: Json, k?: string) =>
      app.fetch('/api/bookings', { method: 'POST', json: body, cookie: as(n), headers: { 'accept-language': 'ja', ...(k ? { 'idempotency-key': k } : {}) } });
    const mine = async (n: 0 | 1, start: string) =>
      ((await (await app.fetch('/api/bookings', { cookie: as(n) })).json()) as Json).items.filter(
        (b: Json) => b.start === isoTokyo(start) && b.status === 'confirmed',
      );

    it('a guest retry with the same key gets the first answer again, edit token included, and the cookies the first set', async () => {
      const body = { ...guest(), store_id: fx.storeId, start: tokyoStart(2, 12), party_size: 2 };
      const k = key();
      const first = await app.fetch('/api/guest-bookings', { method: 'POST', json: body, headers: { 'idempotency-key': k } });
      expect(first.status).toBe(201);
      const a = (await first.json()) as Json;
      expect(guestBookedSchema.safeParse(a).error).toBeUndefined();
      // The draft's structured-field form (quoted) is the same key.
      const again = await app.fetch('/api/guest-bookings', { method: 'POST', json: body, headers: { 'idempotency-key': `"${k}"` } });
      expect(again.status).toBe(201);
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      const b = (await again.json()) as Json;
      expect(b).toEqual(a);
      expect(b.edit_token).toBe(a.edit_token);
      // The replay sets the booking's cookies, so a browser whose first answer was lost can open its result page.
      const jar = new CookieJar().store(again);
      expect(jar.get('sugu_guest_done')).toBe(a.edit_token);
      const page = await app.fetch(`/store/${fx.storeId}/booking-without/complete/${a.id}`, { cookie: `sugu_guest_done=${a.edit_token}` });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(a.code);
      // One booking: a second try without the key is the same diner twice, refused as a duplicate.
      const third = await app.fetch('/api/guest-bookings', { method: 'POST', json: body });
      expect(third.status).toBe(409);
      expect(((await third.json()) as Json).error.code).toBe('duplicate_booking');
    });

    it('the same key with another body is 422, and books nothing', async () => {
      const k = key();
      const start = tokyoStart(2, 15);
      expect((await book(0, { store_id: fx.storeId, start, party_size: 2 }, k)).status).toBe(201);
      const other = await book(0, { store_id: fx.storeId, start: tokyoStart(2, 21), party_size: 2 }, k);
      expect(other.status).toBe(422);
      const e = ((await other.json()) as Json).error;
      expect(e.code).toBe('idempotency_key_reused');
      expect(e.message).toMatch(/Idempotency-Key/);
      expect(await mine(0, tokyoStart(2, 21))).toHaveLength(0);
      expect(await mine(0, start)).toHaveLength(1);
    });

    it('ten requests with one key at once make exactly one booking; the others are told it is in flight or get its answer', async () => {
      const k = key();
      const start = tokyoStart(3, 12);
      const body = { store_id: fx.storeId, start, party_size: 2 };
      const answers = await Promise.all(Array.from({ length: 10 }, () => book(1, body, k)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as Json[];
      const ids = new Set(bodies.filter((_, i) => statuses[i] === 201).map((b) => b.id));
      expect(ids.size).toBe(1);
      for (const [i, b] of bodies.entries()) if (statuses[i] === 409) expect(b.error.code).toBe('idempotency_key_in_flight');
      expect(await mine(1, start)).toHaveLength(1);
      // Once answered, the key gives that answer.
      const later = await book(1, body, k);
      expect(later.status).toBe(201);
      expect(((await later.json()) as Json).id).toBe([...ids][0]);
    });

    it("a key is its sender's: another account with the same key and body books for itself", async () => {
      const k = key();
      const body = { store_id: fx.storeId, start: tokyoStart(3, 16), party_size: 2 };
      const a = (await (await book(0, body, k)).json()) as Json;
      const res = await book(1, body, k);
      expect(res.status).toBe(201);
      const b = (await res.json()) as Json;
      expect(b.id).not.toBe(a.id);
    });

    it('changes and cancels take a key too: a replayed change is the first answer, another body is 422', async () => {
      const created = (await (await book(0, { store_id: fx.storeId, start: tokyoStart(4, 12), party_size: 2 })).json()) as Json;
      const k = key();
      const patch = (json: Json, kk = k) =>
        app.fetch(`/api/bookings/${created.id}`, { method: 'PATCH', json, cookie: as(0), headers: { 'idempotency-key': kk } });
      const first = await patch({ party_size: 3 });
      expect(first.status).toBe(200);
      const a = (await first.json()) as Json;
      expect(a.party_size).toBe(3);
      // Meanwhile another change (another tab): the retry of the first still answers as it did.
      expect((await patch({ note: '窓側' }, key())).status).toBe(200);
      const replay = await patch({ party_size: 3 });
      expect(replay.status).toBe(200);
      expect((await replay.json()) as Json).toEqual(a);
      expect((await patch({ party_size: 4 })).status).toBe(422);
      const now = (await (await app.fetch(`/api/bookings/${created.id}`, { cookie: as(0) })).json()) as Json;
      expect(now).toMatchObject({ party_size: 3, note: '窓側' });

      const ck = key();
      const del = () => app.fetch(`/api/bookings/${created.id}`, { method: 'DELETE', cookie: as(0), headers: { 'idempotency-key': ck } });
      const c1 = await del();
      expect(c1.status).toBe(200);
      const c2 = await del();
      expect(c2.status).toBe(200);
      expect(await c2.json()).toEqual(await c1.json());
    });

    it('a guest change with a key replays; the key is per booking holder', async () => {
      const created = (await (
        await app.fetch('/api/guest-bookings', { method: 'POST', json: { ...guest(), store_id: fx.storeId, start: tokyoStart(4, 15), party_size: 2 } })
      ).json()) as Json;
      const k = key();
      const patch = (json: Json) =>
        app.fetch(`/api/guest-bookings/${created.id}`, { method: 'PATCH', json, headers: { 'x-booking-token': created.edit_token, 'idempotency-key': k } });
      const a = await patch({ party_size: 3 });
      expect(a.status).toBe(200);
      const b = await patch({ party_size: 3 });
      expect(b.status).toBe(200);
      expect(await b.json()).toEqual(await a.json());
      expect((await patch({ party_size: 2 })).status).toBe(422);
    });

    it('a guest cancel retried with its key, ten at once and again later, answers the same and cancels once', async () => {
      const d = guest();
      const created = (await (
        await app.fetch('/api/guest-bookings', { method: 'POST', json: { ...d, store_id: fx.storeId, start: tokyoStart(4, 18), party_size: 2 } })
      ).json()) as Json;
      const k = key();
      const del = (kk = k) =>
        app.fetch(`/api/guest-bookings/${created.id}`, {
          method: 'DELETE',
          headers: { 'x-booking-token': created.edit_token, 'idempotency-key': kk, 'accept-language': 'ja' },
        });
      const answers = await Promise.all(Array.from({ length: 10 }, () => del()));
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as Json[];
      const ok = bodies.filter((_, i) => statuses[i] === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(ok[0]!.status).toBe('cancelled');
      for (const b of ok) expect(b).toEqual(ok[0]);
      for (const [i, b] of bodies.entries()) if (statuses[i] === 409) expect(b.error.code).toBe('idempotency_key_in_flight');
      // The retry after the answer was lost is the first answer again.
      const later = await del();
      expect(later.status).toBe(200);
      expect(await later.json()).toEqual(ok[0]);
      // The same key for another request (a change of the cancelled booking) is refused, not run.
      const other = await app.fetch(`/api/guest-bookings/${created.id}`, {
        method: 'PATCH',
        json: { party_size: 3 },
        headers: { 'x-booking-token': created.edit_token, 'idempotency-key': k },
      });
      expect(other.status).toBe(422);
      if (engine === 'postgres') {
        const h = await openAppDb(app);
        try {
          const mails = await h.sql<{ n: number }[]>`select count(*)::int as n from mail_outbox where kind = 'booking_cancelled' and to_address = ${d.email}`;
          expect(mails[0]!.n).toBe(1);
        } finally {
          await h.close();
        }
      }
    });

    it('a malformed key is a 400 with a translated message, and books nothing', async () => {
      const start = tokyoStart(5, 12);
      for (const bad of ['short', 'x'.repeat(256), 'a key with spaces inside it']) {
        const res = await book(0, { store_id: fx.storeId, start, party_size: 2 }, bad);
        expect(res.status).toBe(400);
        expect(((await res.json()) as Json).error.message).toContain('Idempotency-Key');
      }
      expect(await mine(0, start)).toHaveLength(0);
    });

    it('without JavaScript a guest booking redirects (303) to its result page, which shows the edit link from its cookie; a reload posts nothing', async () => {
      const g = guest();
      const start = tokyoStart(5, 15);
      const form = new URLSearchParams({ intent: 'book', date: '', start, party_size: '2', seat_preference: '', note: '', ...g });
      const posted = await app.fetch(`/store/${fx.storeId}/booking-without`, {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja' },
      });
      expect(posted.status).toBe(303);
      const location = posted.headers.get('location')!;
      expect(location).toMatch(new RegExp(`^/store/${fx.storeId}/booking-without/complete/\\d+$`));
      const jar = new CookieJar().store(posted);
      const token = jar.get('sugu_guest_done')!;
      expect(token).toBeTruthy();
      expect(posted.headers.getSetCookie().find((c) => c.startsWith('sugu_guest_done='))).toContain(`Path=${location}`);
      const page = await app.fetch(location, { cookie: `sugu_guest_done=${token}` });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toContain('no-store');
      const html = await page.text();
      expect(html).toContain(`booking-without/edit/${location.split('/').pop()}?token=${encodeURIComponent(token)}`);
      expect(html).not.toContain('この内容で予約する');
      // Without the cookie (another browser) the page is not found: the token is in no address.
      expect((await app.fetch(location)).status).toBe(404);
    });

    it('without JavaScript a signed-in booking redirects (303) to its result page', async () => {
      const start = tokyoStart(5, 18);
      const form = new URLSearchParams({ intent: 'book', date: '', start, party_size: '2', seat_preference: '', note: '' });
      const posted = await app.fetch(`/store/${fx.storeId}/booking`, {
        method: 'POST',
        body: form,
        cookie: as(1),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toMatch(new RegExp(`^/store/${fx.storeId}/booking/complete/\\d+$`));
    });

    if (engine === 'postgres') {
      it('a key sent to one instance is answered the same by another, and ten split across both make one booking', async () => {
        const second = await startApp('postgres', {}, { databaseUrl: app.databaseUrl });
        try {
          const body = { ...guest(), store_id: fx.storeId, start: tokyoStart(6, 12), party_size: 2 };
          const k = key();
          const a = await app.fetch('/api/guest-bookings', { method: 'POST', json: body, headers: { 'idempotency-key': k } });
          expect(a.status).toBe(201);
          const b = await second.fetch('/api/guest-bookings', { method: 'POST', json: body, headers: { 'idempotency-key': k } });
          expect(b.status).toBe(201);
          expect(await b.json()).toEqual(await a.json());

          const k2 = key();
          const start = tokyoStart(6, 16);
          const both = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              (i % 2 ? second : app).fetch('/api/bookings', {
                method: 'POST',
                json: { store_id: fx.storeId, start, party_size: 2 },
                cookie: as(0),
                headers: { 'idempotency-key': k2 },
              }),
            ),
          );
          expect(both.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
          expect(both.every((r) => r.status === 201 || r.status === 409)).toBe(true);
          const h = await openAppDb(app);
          try {
            const rows = await h.sql<
              { n: number }[]
            >`select count(*)::int as n from bookings where store_id = ${fx.storeId} and starts_at = ${new Date(start)} and user_id = ${fx.users[0]!.id}`;
            expect(rows[0]!.n).toBe(1);
            const keys = await h.sql<
              { n: number; plain: number }[]
            >`select count(*)::int as n, count(*) filter (where answer like ${`%${k}%`} or id = ${k})::int as plain from idempotency_keys`;
            expect(keys[0]!.n).toBeGreaterThanOrEqual(2);
            // Neither the key nor the edit token is readable in the table.
            expect(keys[0]!.plain).toBe(0);
            const tokens = await h.sql<
              { n: number }[]
            >`select count(*)::int as n from idempotency_keys where answer like ${`%${((await (await app.fetch('/api/guest-bookings', { method: 'POST', json: body, headers: { 'idempotency-key': k } })).json()) as Json).edit_token}%`}`;
            expect(tokens[0]!.n).toBe(0);
          } finally {
            await h.close();
          }
        } finally {
          await second.stop();
        }
      });
    }
  });
}
