/**
 * schema.org markup and calendar invitations as the built server sends them, on both engines: the
 * store page's Restaurant and breadcrumb, the area page's breadcrumb, the reservation on the
 * booking result pages (signed in and guest) and in the HTML part of every booking mail, and the
 * .ics each booking mail carries (one UID per booking, SEQUENCE counting the changes, CANCEL when
 * cancelled). Mails are read from the real SMTP catcher the server delivers to.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedTo, until, type App } from '../helpers/app';
import type { LoggedMail } from '../helpers/smtp';
import { expand, ldBlocks, ldOf, missingReservationProperties, schemaIri, typesOf } from '../helpers/jsonld';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

type Json = Record<string, any>;
const JA = { 'accept-language': 'ja' };

/** The texts of the visible breadcrumb's items. */
function visibleBreadcrumb(html: string): string[] {
  const nav = html.match(/<nav aria-label="[^"]*" class="breadcrumbs[^"]*">([\s\S]*?)<\/nav>/)?.[1] ?? '';
  return [...nav.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
}

/** The content lines of an .ics, unfolded; the event's own, after the time zone's (which has a DTSTART too). */
const icsLines = (ics: string) => {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  const event = lines.indexOf('BEGIN:VEVENT');
  return [...lines.slice(0, lines.indexOf('BEGIN:VTIMEZONE')), ...lines.slice(event)];
};
const icsValue = (ics: string, name: string) =>
  icsLines(ics)
    .find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`))
    ?.replace(/^[^:]*:/, '');

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`structured data and calendar invitations [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      // Changes are mailed a second apart at most, so each step's mail is seen before the next.
      ({ app, fx, cleanup } = await startWithFixture(engine, { BOOKING_CHANGE_MAIL_SECONDS: '1' }));
    });
    afterAll(() => cleanup?.());

    /** Waits for the `n`th mail to `to` and returns it. */
    const nthMail = (to: string, n: number) => until(async () => mailedTo(app, to)[n - 1], `mail ${n} to ${to}`, 2400) as Promise<LoggedMail>;

    it('store page: a Restaurant with its facts and the breadcrumb it draws, ホーム → area → store', async () => {
      const res = await app.fetch(`/store/${fx.storeId}`, { headers: JA });
      expect(res.status).toBe(200);
      const html = await res.text();
      const restaurant = ldOf(html, 'Restaurant');
      expect(restaurant).toMatchObject({
        '@context': 'https://schema.org',
        name: 'テスト酒場 渋谷',
        url: `${app.url}/store/${fx.storeId}`,
        address: {
          '@type': 'PostalAddress',
          addressCountry: 'JP',
          addressRegion: '東京都',
          addressLocality: '渋谷区',
          streetAddress: '道玄坂1-2-3, テストビル',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 35.658, longitude: 139.7016 },
        telephone: '03-1234-5678',
        servesCuisine: '居酒屋',
        priceRange: '¥3,000〜¥5,000',
        acceptsReservations: true,
      });
      // Open all day, every day: one entry naming the seven days.
      expect(restaurant.openingHoursSpecification).toEqual([
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
          opens: '00:00',
          closes: '23:59',
        },
      ]);
      const [node] = await expand(restaurant);
      expect(typesOf(node!)).toEqual([schemaIri('Restaurant')]);

      const crumbs = ldOf(html, 'BreadcrumbList');
      expect(crumbs.itemListElement.map((i: Json) => i.name)).toEqual(visibleBreadcrumb(html));
      expect(crumbs.itemListElement.map((i: Json) => [i.position, i.item])).toEqual([
        [1, `${app.url}/home`],
        [2, expect.stringMatching(new RegExp(`^${app.url}/areas/\\d+$`))],
        [3, `${app.url}/store/${fx.storeId}`],
      ]);
      expect(html).toContain(`href="${new URL(crumbs.itemListElement[1].item).pathname}"`);
      // No diner's data on a public page.
      expect(
        ldBlocks(html)
          .map((b) => b['@type'])
          .sort(),
      ).toEqual(['BreadcrumbList', 'Restaurant']);

      // The markup's weight on the wire, its two blocks compressed alone: 561 bytes of brotli, 601 of
      // gzip. Measured as the page with less the page without, it moved with the hour (the day's
      // starts change the page around it): under 512 bytes at most hours, 651 at 07:05 in Tokyo.
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">[\s\S]*?<\/script>/g)].map((m) => m[0]).join('');
      expect(blocks.length).toBeGreaterThan(500);
      const br = (s: string) => zlib.brotliCompressSync(s, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }).length;
      const gz = (s: string) => zlib.gzipSync(s, { level: 6 }).length;
      expect(br(blocks)).toBeLessThan(640);
      expect(gz(blocks)).toBeLessThan(1024);
    });

    it('area page: the breadcrumb it draws, ホーム → area', async () => {
      const store = await (await app.fetch(`/store/${fx.storeId}`, { headers: JA })).text();
      const areaPath = new URL(ldOf(store, 'BreadcrumbList').itemListElement[1].item).pathname;
      const html = await (await app.fetch(areaPath, { headers: JA })).text();
      const crumbs = ldOf(html, 'BreadcrumbList');
      expect(crumbs.itemListElement.map((i: Json) => i.name)).toEqual(visibleBreadcrumb(html));
      expect(crumbs.itemListElement.map((i: Json) => i.item)).toEqual([`${app.url}/home`, `${app.url}${areaPath}`]);
      const [node] = await expand(crumbs);
      expect(typesOf(node!)).toEqual([schemaIri('BreadcrumbList')]);
    });

    it('a signed-in booking: the reservation on its result page and in every mail; one UID, SEQUENCE counting, CANCEL at the end', async () => {
      const me = fx.users[0]!;
      const booked = await app.fetch('/api/bookings', {
        method: 'POST',
        cookie: me.cookie,
        headers: JA,
        json: { store_id: fx.storeId, start: tokyoStart(3, 19), party_size: 2 },
      });
      expect(booked.status).toBe(201);
      const b = (await booked.json()) as Json;

      const page = await app.fetch(`/store/${fx.storeId}/booking/complete/${b.id}`, { cookie: me.cookie, headers: JA });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toContain('no-store');
      const onPage = ldOf(await page.text(), 'FoodEstablishmentReservation');
      expect(missingReservationProperties(onPage)).toEqual([]);
      expect(onPage).toMatchObject({
        reservationNumber: b.code,
        reservationStatus: 'https://schema.org/ReservationConfirmed',
        underName: { '@type': 'Person', name: '予約 太郎1' },
        reservationFor: { '@type': 'FoodEstablishment', name: 'テスト酒場 渋谷', address: { addressLocality: '渋谷区' } },
        startTime: b.start,
        partySize: 2,
        modifyReservationUrl: `${app.url}/store/${fx.storeId}/booking/edit/${b.id}`,
      });
      expect(onPage.startTime).toMatch(/T19:00:00\+09:00$/);
      const [node] = await expand(onPage);
      expect(typesOf(node!)).toEqual([schemaIri('FoodEstablishmentReservation')]);

      const created = await nthMail(me.email, 1);
      const inMail = ldOf(created.html, 'FoodEstablishmentReservation');
      expect(inMail).toEqual(onPage);
      // The text part is the mail as before: no markup in it.
      expect(created.text).toContain(b.code);
      expect(created.text).not.toContain('schema.org');
      expect(created.calendars).toHaveLength(1);
      const first = created.calendars[0]!;
      expect(first.contentType).toBe('text/calendar; method=REQUEST');
      const uid = icsValue(first.content, 'UID');
      expect(uid).toBe(`booking-${b.id}@${new URL(app.url).hostname}`);
      expect(icsValue(first.content, 'METHOD')).toBe('REQUEST');
      expect(icsValue(first.content, 'SEQUENCE')).toBe('0');
      expect(icsValue(first.content, 'STATUS')).toBe('CONFIRMED');
      expect(icsValue(first.content, 'ATTENDEE')).toBe(`mailto:${me.email}`);
      expect(icsValue(first.content, 'DTSTART')).toBe(b.start.slice(0, 19).replace(/[-:]/g, ''));

      // A change: the same event, a higher SEQUENCE, the new party in the markup.
      expect((await app.fetch(`/api/bookings/${b.id}`, { method: 'PATCH', cookie: me.cookie, headers: JA, json: { party_size: 3 } })).status).toBe(200);
      const changed = await nthMail(me.email, 2);
      expect(ldOf(changed.html, 'FoodEstablishmentReservation')).toMatchObject({
        reservationNumber: b.code,
        partySize: 3,
        reservationStatus: 'https://schema.org/ReservationConfirmed',
      });
      expect(icsValue(changed.calendars[0]!.content, 'UID')).toBe(uid);
      expect(icsValue(changed.calendars[0]!.content, 'METHOD')).toBe('REQUEST');
      expect(icsValue(changed.calendars[0]!.content, 'SEQUENCE')).toBe('1');

      // The download names the same event at the same revision, to import (PUBLISH).
      const download = await (await app.fetch(`/api/bookings/${b.id}/ics`, { cookie: me.cookie })).text();
      expect([icsValue(download, 'UID'), icsValue(download, 'SEQUENCE'), icsValue(download, 'METHOD')]).toEqual([uid, '1', 'PUBLISH']);

      // Cancelled: the calendar is told to remove it (METHOD:CANCEL, STATUS:CANCELLED), revision on.
      expect((await app.fetch(`/api/bookings/${b.id}`, { method: 'DELETE', cookie: me.cookie, headers: JA })).status).toBe(200);
      const cancelled = await nthMail(me.email, 3);
      expect(ldOf(cancelled.html, 'FoodEstablishmentReservation')).toMatchObject({
        reservationNumber: b.code,
        reservationStatus: 'https://schema.org/ReservationCancelled',
      });
      const last = cancelled.calendars[0]!;
      expect(last.contentType).toBe('text/calendar; method=CANCEL');
      expect([icsValue(last.content, 'UID'), icsValue(last.content, 'METHOD'), icsValue(last.content, 'STATUS'), icsValue(last.content, 'SEQUENCE')]).toEqual([
        uid,
        'CANCEL',
        'CANCELLED',
        '2',
      ]);
    }, 120_000);

    it('a guest booking: the reservation under the guest name on the result page and in the mail, changed through the edit link', async () => {
      const email = `markup-${engine}-${process.pid}@example.jp`;
      const res = await app.fetch('/api/guest-bookings', {
        method: 'POST',
        headers: JA,
        json: { store_id: fx.storeId, start: tokyoStart(4, 20), party_size: 4, name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-7777-1234', email },
      });
      expect(res.status).toBe(201);
      const b = (await res.json()) as Json;
      const editLink = `${app.url}/store/${fx.storeId}/booking-without/edit/${b.id}?token=${encodeURIComponent(b.edit_token)}`;

      const page = await app.fetch(`/store/${fx.storeId}/booking-without/complete/${b.id}`, { cookie: `sugu_guest_done=${b.edit_token}`, headers: JA });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const onPage = ldOf(await page.text(), 'FoodEstablishmentReservation');
      expect(missingReservationProperties(onPage)).toEqual([]);
      expect(onPage).toMatchObject({ reservationNumber: b.code, underName: { name: '山田 花子' }, partySize: 4, modifyReservationUrl: editLink });

      const created = await nthMail(email, 1);
      expect(ldOf(created.html, 'FoodEstablishmentReservation')).toEqual(onPage);
      expect(created.text).toContain(editLink);
      expect(icsValue(created.calendars[0]!.content, 'SEQUENCE')).toBe('0');

      expect(
        (
          await app.fetch(`/api/guest-bookings/${b.id}`, {
            method: 'PATCH',
            headers: { ...JA, 'x-booking-token': b.edit_token },
            json: { start: tokyoStart(4, 21) },
          })
        ).status,
      ).toBe(200);
      const changed = await nthMail(email, 2);
      const later = ldOf(changed.html, 'FoodEstablishmentReservation');
      expect(later.startTime).toMatch(/T21:00:00\+09:00$/);
      // The change mail has no token to give: the edit page, which the booking browser opens by its cookie.
      expect(later.modifyReservationUrl).toBe(`${app.url}/store/${fx.storeId}/booking-without/edit/${b.id}`);
      expect(icsValue(changed.calendars[0]!.content, 'UID')).toBe(icsValue(created.calendars[0]!.content, 'UID'));
      expect(icsValue(changed.calendars[0]!.content, 'SEQUENCE')).toBe('1');
      expect(icsValue(changed.calendars[0]!.content, 'DTSTART')).toMatch(/T210000$/);
    }, 120_000);

    it('keeps the page without the guest page cookie a 404, with no markup', async () => {
      const res = await app.fetch(`/store/${fx.storeId}/booking-without/complete/1`, { headers: JA });
      expect(res.status).toBe(404);
      expect(ldBlocks(await res.text()).filter((x) => x['@type'] === 'FoodEstablishmentReservation')).toEqual([]);
    });
  });
}
