/**
 * The schema.org builder (src/server/structuredData.ts): the escaping that keeps a name from ending
 * its script, addresses and hours as schema.org types, and the markup read back by a JSON-LD
 * processor as a consumer reads it.
 */
import { describe, expect, it } from 'vitest';
import { breadcrumbLd, jsonLdScript, jsonLdText, openingHours, postalAddress, reservationLd, restaurantLd } from '../../src/server/structuredData';
import { mailHtml } from '../../src/server/mail/html';
import { expand, ldBlocks, ldOf, missingReservationProperties, schemaIri, typesOf, value } from '../helpers/jsonld';

const origin = 'https://sugu.example.jp';

const store = {
  id: 7,
  name: '酒場 </script><script>alert(1)</script>',
  genre: 'izakaya' as const,
  address: '東京都渋谷区道玄坂1-2-3, テストビル',
  lat: 35.658,
  lng: 139.7016,
  phone: '03-1234-5678',
  budgetMin: 3000,
  budgetMax: 5000,
  description: '',
  photos: [{ src: '/photos/7-1.webp' }],
  hours: [...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, opensMin: 17 * 60, closesMin: 26 * 60 })), { weekday: 6, opensMin: 0, closesMin: 1440 }],
};

const booking = {
  code: 'SG-ABC234',
  status: 'confirmed' as const,
  storeId: 7,
  storeName: '酒場 とりあえず',
  storeAddress: '渋谷区道玄坂1丁目',
  storePhone: '03-1234-5678',
  start: new Date('2026-11-21T12:45:00Z'),
  end: new Date('2026-11-21T14:45:00Z'),
  partySize: 4,
};

describe('JSON-LD escaping for an inline script', () => {
  it('writes no `<` at all, so `</script>` and `<!--` in a value cannot end or bend the script, and reads back the same', () => {
    const data = { name: '</script><!-- x', note: 'a\u2028b\u2029c' };
    const text = jsonLdText(data);
    expect(text).not.toContain('<');
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(text).toContain('\\u003c/script>');
    expect(text).toContain('\\u2028');
    expect(JSON.parse(text)).toEqual(data);
  });

  it('keeps a store named with a closing tag inside its one script in a page', () => {
    const html = `<head>${jsonLdScript(restaurantLd(store, { origin, cuisine: '居酒屋' }))}</head>`;
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(ldOf(html, 'Restaurant').name).toBe(store.name);
  });
});

describe('addresses and hours', () => {
  it('splits a Japanese address into prefecture, city or ward and the rest', () => {
    expect(postalAddress('東京都渋谷区道玄坂1-2-3, テストビル')).toEqual({
      '@type': 'PostalAddress',
      addressCountry: 'JP',
      addressRegion: '東京都',
      addressLocality: '渋谷区',
      streetAddress: '道玄坂1-2-3, テストビル',
    });
    expect(postalAddress('大阪府大阪市北区梅田1丁目')).toMatchObject({ addressRegion: '大阪府', addressLocality: '大阪市', streetAddress: '北区梅田1丁目' });
    expect(postalAddress('神奈川県横浜市西区みなとみらい2')).toMatchObject({ addressRegion: '神奈川県', addressLocality: '横浜市' });
    // The stores' addresses begin at the ward: Tokyo's.
    expect(postalAddress('渋谷区道玄坂1丁目')).toMatchObject({ addressRegion: '東京都', addressLocality: '渋谷区', streetAddress: '道玄坂1丁目' });
  });

  it('groups the days of one opening, writes past midnight as a close before the open, all day as 00:00–23:59, and names no closed day', () => {
    const spec = openingHours(store.hours);
    expect(spec).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '17:00', closes: '02:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '00:00', closes: '23:59' },
    ]);
    expect(JSON.stringify(spec)).not.toContain('Sunday');
  });
});

describe('Restaurant and BreadcrumbList', () => {
  it('describes a store a JSON-LD processor reads as a schema.org Restaurant with its facts', async () => {
    const ld = restaurantLd(store, { origin, cuisine: '居酒屋' });
    const [node] = await expand(ld);
    expect(typesOf(node!)).toEqual([schemaIri('Restaurant')]);
    expect(value(node!, 'name')).toBe(store.name);
    expect(value(node!, 'url')).toBe(`${origin}/store/7`);
    expect(value(node!, 'servesCuisine')).toBe('居酒屋');
    expect(value(node!, 'priceRange')).toBe('¥3,000〜¥5,000');
    expect(value(node!, 'acceptsReservations')).toBe(true);
    expect(value(node!, 'telephone')).toBe('03-1234-5678');
    expect(value(node!, 'image')).toBe(`${origin}/photos/7-1.webp`);
    expect(typesOf(value(node!, 'address'))).toEqual([schemaIri('PostalAddress')]);
    const geo = value(node!, 'geo');
    expect([value(geo, 'latitude'), value(geo, 'longitude')]).toEqual([35.658, 139.7016]);
    expect(node![schemaIri('openingHoursSpecification')]).toHaveLength(2);
  });

  it('numbers the trail from 1, each item named with its address', async () => {
    const ld = breadcrumbLd([
      { name: 'ホーム', url: `${origin}/home` },
      { name: '渋谷', url: `${origin}/areas/1` },
    ]);
    const [node] = await expand(ld);
    expect(typesOf(node!)).toEqual([schemaIri('BreadcrumbList')]);
    const items = node![schemaIri('itemListElement')] as Record<string, any>[];
    expect(items.map((i) => [value(i, 'position'), value(i, 'name'), value(i, 'item')])).toEqual([
      [1, 'ホーム', `${origin}/home`],
      [2, '渋谷', `${origin}/areas/1`],
    ]);
  });
});

describe('FoodEstablishmentReservation', () => {
  const modify = `${origin}/store/7/booking/edit/12`;

  it('carries every property Google requires, times in +09:00, and expands as schema.org', async () => {
    const ld = reservationLd(booking, { name: '山田 花子' }, { origin, modify });
    expect(missingReservationProperties(ld)).toEqual([]);
    expect(ld).toMatchObject({
      reservationNumber: 'SG-ABC234',
      reservationStatus: 'https://schema.org/ReservationConfirmed',
      underName: { '@type': 'Person', name: '山田 花子' },
      reservationFor: { '@type': 'FoodEstablishment', name: '酒場 とりあえず', address: { addressLocality: '渋谷区' } },
      startTime: '2026-11-21T21:45:00+09:00',
      endTime: '2026-11-21T23:45:00+09:00',
      partySize: 4,
      modifyReservationUrl: modify,
    });
    const [node] = await expand(ld);
    expect(typesOf(node!)).toEqual([schemaIri('FoodEstablishmentReservation')]);
    expect(value(node!, 'reservationStatus')).toBe(schemaIri('ReservationConfirmed'));
    expect(typesOf(value(node!, 'reservationFor'))).toEqual([schemaIri('FoodEstablishment')]);
  });

  it('says ReservationCancelled for a cancelled booking', () => {
    expect(reservationLd({ ...booking, status: 'cancelled' }, { name: 'x' }, { origin, modify }).reservationStatus).toBe(
      'https://schema.org/ReservationCancelled',
    );
  });

  it('finds a missing required property', () => {
    const ld = reservationLd(booking, { name: '' }, { origin, modify }) as Record<string, any>;
    delete ld.partySize;
    expect(missingReservationProperties(ld)).toEqual(['underName.name', 'partySize']);
  });
});

describe('the HTML part of a mail with markup', () => {
  const mail = { subject: '件名', text: 'ご予約を承りました。\n\n予約番号: SG-ABC234', locale: 'ja' };

  it('carries the reservation beside the same text, and nothing without markup', () => {
    const plain = mailHtml(mail);
    expect(ldBlocks(plain)).toEqual([]);
    const html = mailHtml({ ...mail, markup: reservationLd(booking, { name: '</script>' }, { origin, modify: origin }) });
    expect(ldOf(html, 'FoodEstablishmentReservation').underName.name).toBe('</script>');
    // The text is drawn as without markup.
    expect(html.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>\n/, '')).toBe(plain);
  });
});
