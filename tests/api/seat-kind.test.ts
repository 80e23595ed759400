/**
 * A seat kind asked for (the listing's 個室 filter) on both engines: the store page's starts and
 * links keep it, the booking form opens with it chosen and offers that kind's starts, and the
 * booking seats the party at a table of that kind, or answers 409 with that kind's next free starts;
 * never a table of another kind in its place. The fixture store is open 24 hours with three tables
 * for four and one private room for six, so any hour works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../helpers/app';
import { isoTokyo, startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';
import { addTokyoDays } from '../../src/lib/datetime';
import { businessDate } from '../../src/server/availability';

type Json = Record<string, any>;
const day = (n: number) => addTokyoDays(businessDate(new Date()), n);
let guests = 0;
/** A guest of their own for each booking: one diner is never booked twice at once. */
const guest = () => ({ name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: `090-2345-${String(1000 + ++guests)}`, email: `seat-${guests}@example.jp` });

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`seat kind from the listing to the booking [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
    });
    afterAll(() => cleanup?.());

    const book = (start: string, seat?: string) =>
      app.fetch('/api/guest-bookings', {
        method: 'POST',
        json: { ...guest(), store_id: fx.storeId, start, party_size: 2, ...(seat ? { seat_preference: seat } : {}) },
      });
    const freeAt = async (date: string, start: string, seat?: string) => {
      const slots = ((await (await app.fetch(`/api/stores/${fx.storeId}/availability?date=${date}&party=2${seat ? `&seat=${seat}` : ''}`)).json()) as Json)
        .slots as Json[];
      return slots.find((s) => Date.parse(s.start) === Date.parse(start))?.free_tables;
    };

    it('seats the party at a table of the kind asked for, else 409 with that kind’s next free starts', async () => {
      const at = tokyoStart(3, 19);
      expect([await freeAt(day(3), at), await freeAt(day(3), at, 'private_room')]).toEqual([4, 1]);
      const room = await book(at, 'private_room');
      expect(room.status).toBe(201);
      expect((await room.json()) as Json).toMatchObject({ seat_preference: 'private_room', table_kind: 'private_room' });
      expect([await freeAt(day(3), at), await freeAt(day(3), at, 'private_room')]).toEqual([3, 0]);

      // The room is taken: no other kind in its place, and the next free starts are the room's.
      const taken = await book(at, 'private_room');
      expect(taken.status).toBe(409);
      const error = ((await taken.json()) as Json).error;
      expect(error.code).toBe('slot_taken');
      const next = error.next_slots as Json[];
      expect(next.length).toBeGreaterThan(0);
      for (const s of next) {
        expect(Date.parse(s.start) - Date.parse(at) >= 120 * 60_000 || Date.parse(at) - Date.parse(s.start) >= 120 * 60_000).toBe(true);
        expect(await freeAt(day(3), s.start, 'private_room')).toBe(1);
      }
      // Without a kind, another table is free.
      const any = await book(at);
      expect(any.status).toBe(201);
      expect(((await any.json()) as Json).table_kind).not.toBe('private_room');
      // A kind the party cannot sit at, or one the store does not have, is never quietly dropped.
      expect((await book(tokyoStart(3, 12), 'tatami')).status).toBe(409);
      expect(((await (await book(tokyoStart(3, 12), 'sofa')).json()) as Json).error.fields).toHaveProperty('seat_preference');
    });

    it('a change to another kind keeps that kind or is refused, and the booking stays as it was', async () => {
      const at = tokyoStart(4, 20);
      const first = await book(at, 'private_room');
      expect(first.status).toBe(201);
      const made = (await book(at, 'table')) as Response;
      expect(made.status).toBe(201);
      const b = (await made.json()) as Json & { edit_token: string };
      const edit = (body: Json) => app.fetch(`/api/guest-bookings/${b.id}`, { method: 'PATCH', json: body, headers: { 'x-booking-token': b.edit_token } });
      const refused = await edit({ seat_preference: 'private_room' });
      expect(refused.status).toBe(409);
      const still = (await (await app.fetch(`/api/guest-bookings/${b.id}`, { headers: { 'x-booking-token': b.edit_token } })).json()) as Json;
      expect(still).toMatchObject({ start: isoTokyo(at), seat_preference: 'table', table_kind: 'table' });
      const moved = await edit({ start: tokyoStart(4, 23), seat_preference: 'private_room' });
      expect(moved.status).toBe(200);
      expect((await moved.json()) as Json).toMatchObject({ seat_preference: 'private_room', table_kind: 'private_room' });
    });

    it('the store page and the booking form keep the kind: its starts, its links, the form’s choice', async () => {
      const page = await (await app.fetch(`/store/${fx.storeId}?date=${day(5)}&seat=private_room`, { headers: { 'accept-language': 'ja' } })).text();
      expect(page).toContain('data-seat-kind="private_room"');
      const links = [...page.matchAll(/href="(\/store\/\d+\/booking-without\?[^"]+)"/g)].map((m) => new URL(m[1]!.replaceAll('&amp;', '&'), 'http://x'));
      expect(links.length).toBeGreaterThan(0);
      expect(links.every((u) => u.searchParams.get('seat') === 'private_room')).toBe(true);
      // A start linked from it opens the form with the room chosen and the room's starts offered.
      const start = tokyoStart(5, 18);
      const formUrl = `/store/${fx.storeId}/booking-without?party=2&seat=private_room&start=${encodeURIComponent(isoTokyo(start))}`;
      const form = await (await app.fetch(formUrl, { headers: { 'accept-language': 'ja' } })).text();
      expect(form).toMatch(/<option value="private_room" selected=""/);
      // Taken meanwhile: the form says so instead of offering the start.
      expect((await book(start, 'private_room')).status).toBe(201);
      const again = await (await app.fetch(formUrl, { headers: { 'accept-language': 'ja' } })).text();
      expect(again).toMatch(/<option value="private_room" selected=""/);
      expect(again).toContain('data-testid="race-lost"');
    });

    it('the store page’s “now” block counts the kind asked for, outside the live counts of every kind', async () => {
      const nowBlock = async (query: string) => {
        const page = await (await app.fetch(`/store/${fx.storeId}?party=2${query}`, { headers: { 'accept-language': 'ja' } })).text();
        const block = /<div[^>]*data-now[^>]*>[\s\S]*?<span data-live-free>(\d+)<\/span>/.exec(page);
        expect(block, 'the now block with its count').not.toBeNull();
        return { free: Number(block![1]), live: /data-live-store=/.test(block![0]) };
      };
      // The fixture store is open around the clock with three tables and one private room free now.
      expect(await nowBlock('')).toEqual({ free: 4, live: true });
      expect(await nowBlock('&seat=private_room')).toEqual({ free: 1, live: false });
    });
  });
}
