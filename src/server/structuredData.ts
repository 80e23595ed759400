/**
 * schema.org markup (JSON-LD) that search engines and mail apps read: a store as a `Restaurant`,
 * the breadcrumb trail of store and area pages, and a booking as a `FoodEstablishmentReservation`
 * (Gmail's and Google's reservation cards). One builder for the pages and the mails, so a page and
 * the mail about the same booking never say two different things.
 *
 * Only what the page or mail itself shows goes in: the store's public facts on its public page, the
 * diner's name only in a reservation, which is drawn only on private pages (no-store) and in mails.
 *
 * One module: one builder for the pages and the mails (see above); the exports are its pieces,
 * each a few lines.
 */
import type { BreadcrumbList, DayOfWeek, FoodEstablishmentReservation, OpeningHoursSpecification, PostalAddress, Restaurant, WithContext } from 'schema-dts';
import { formatYenRange } from '../lib/format';
import { toTokyoIso } from '../lib/datetime';
import type { BookingStatus } from '../lib/contract/enums';

const CONTEXT = 'https://schema.org' as const;

/** schema.org's days, indexed as the store's hours count them (0 = Sunday). */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * Serialises markup for an inline `<script type="application/ld+json">`: `<` is written as `\u003c`
 * so no `</script>` (nor `<!--`) in a store's name or a diner's name can end the script, and the
 * line separators U+2028/2029, which some parsers take as line ends, are escaped too. JSON.parse
 * reads the same value back.
 * @example jsonLdText({ name: '</script>' }) // '{"name":"\\u003c/script>"}'
 */
export function jsonLdText(data: object): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The whole element, for mails (pages draw it with Astro's `set:html`). */
export const jsonLdScript = (data: object) => `<script type="application/ld+json">${jsonLdText(data)}</script>`;

const PREFECTURE = /^(東京都|北海道|(?:京都|大阪)府|[^\s都道府県]{2,3}県)/;
const LOCALITY = /^(.+?[市区町村])/;

/**
 * A Japanese address as a PostalAddress: the prefecture (addressRegion) and the city or ward
 * (addressLocality) when the address starts with them; the stores' addresses are written from the
 * ward on (渋谷区道玄坂1丁目), in Tokyo then.
 * @example postalAddress('渋谷区道玄坂1丁目') // { addressRegion: '東京都', addressLocality: '渋谷区', streetAddress: '道玄坂1丁目', … }
 */
export function postalAddress(address: string): PostalAddress {
  let rest = address.trim();
  const region = rest.match(PREFECTURE)?.[1];
  if (region) rest = rest.slice(region.length);
  const locality = rest.match(LOCALITY)?.[1];
  if (locality) rest = rest.slice(locality.length);
  return {
    '@type': 'PostalAddress',
    addressCountry: 'JP',
    // Without a prefecture the address is a Tokyo ward's: the app's stores are in Tokyo's 23 wards.
    addressRegion: region ?? (locality?.endsWith('区') ? '東京都' : undefined),
    ...(locality ? { addressLocality: locality } : {}),
    streetAddress: rest || address,
  };
}

/** `HH:MM` of minutes from midnight; past midnight (1:30 as 1530) wraps, as schema.org reads a close before the open. */
const clock = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/**
 * The week's hours, one entry per distinct opening with every day it applies to (a store open the
 * same hours six days a week is one entry, which keeps the page light). A day with no opening is
 * closed and named nowhere. Open all day is 00:00–23:59, as Google asks.
 */
export function openingHours(hours: readonly { weekday: number; opensMin: number; closesMin: number }[]): OpeningHoursSpecification[] {
  const byOpening = new Map<string, { opens: string; closes: string; days: number[] }>();
  for (const h of hours) {
    const allDay = h.opensMin === 0 && h.closesMin >= 1440;
    const opens = clock(h.opensMin);
    const closes = allDay ? '23:59' : clock(h.closesMin);
    const key = `${opens}-${closes}`;
    const entry = byOpening.get(key) ?? { opens, closes, days: [] };
    if (!entry.days.includes(h.weekday)) entry.days.push(h.weekday);
    byOpening.set(key, entry);
  }
  return [...byOpening.values()].map(({ opens, closes, days }) => ({
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: days.sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => DAYS[d] as DayOfWeek),
    opens,
    closes,
  }));
}

/** The facts of a store the markup is made from (StoreDetail has them). */
export interface StoreFacts {
  id: number;
  name: string;
  address: string;
  lat: number;
  lng: number;
  phone: string;
  budgetMin: number;
  budgetMax: number;
  description: string;
  photos: readonly { src: string }[];
  hours: readonly { weekday: number; opensMin: number; closesMin: number }[];
}

export const storeUrl = (origin: string, id: number) => `${origin}/store/${id}`;
export const areaUrl = (origin: string, id: number) => `${origin}/areas/${id}`;

/** A store's page as a Restaurant that takes reservations; `cuisine` is the genre as the page names it (居酒屋). */
export function restaurantLd(store: StoreFacts, ctx: { origin: string; cuisine: string }): WithContext<Restaurant> {
  const photo = store.photos[0]?.src;
  return {
    '@context': CONTEXT,
    '@type': 'Restaurant',
    '@id': `${storeUrl(ctx.origin, store.id)}#restaurant`,
    name: store.name,
    url: storeUrl(ctx.origin, store.id),
    ...(photo ? { image: new URL(photo, ctx.origin).href } : {}),
    address: postalAddress(store.address),
    geo: { '@type': 'GeoCoordinates', latitude: store.lat, longitude: store.lng },
    ...(store.phone ? { telephone: store.phone } : {}),
    servesCuisine: ctx.cuisine,
    priceRange: formatYenRange(store.budgetMin, store.budgetMax, 'ja'),
    openingHoursSpecification: openingHours(store.hours),
    acceptsReservations: true,
  };
}

/**
 * The trail ホーム → area → store, as the page's visible breadcrumb draws it: the last item is the
 * page itself (named, with its address, as Google accepts for the current page).
 */
export function breadcrumbLd(items: readonly { name: string; url: string }[]): WithContext<BreadcrumbList> {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: i + 1, name: item.name, item: item.url })),
  };
}

/** What a reservation says: a booking (BookingView has it) and who booked it. */
export interface ReservationFacts {
  code: string;
  status: BookingStatus;
  storeId: number;
  storeName: string;
  storeAddress: string;
  storePhone: string;
  start: Date;
  end: Date;
  partySize: number;
}

/** schema.org names the code `reservationId`; Google's reservation markup reads `reservationNumber` (both are given) and `modifyReservationUrl`, which schema.org lacks. */
export type ReservationMarkup = WithContext<FoodEstablishmentReservation> & { reservationNumber: string; modifyReservationUrl: string };

/**
 * A booking as Google's reservation markup asks for it (reservationNumber, reservationStatus,
 * underName.name, reservationFor.name and address, startTime, partySize), with where it is changed.
 */
export function reservationLd(b: ReservationFacts, who: { name: string }, links: { origin: string; modify: string }): ReservationMarkup {
  return {
    '@context': CONTEXT,
    '@type': 'FoodEstablishmentReservation',
    reservationNumber: b.code,
    reservationId: b.code,
    reservationStatus: b.status === 'cancelled' ? 'https://schema.org/ReservationCancelled' : 'https://schema.org/ReservationConfirmed',
    underName: { '@type': 'Person', name: who.name },
    reservationFor: {
      '@type': 'FoodEstablishment',
      name: b.storeName,
      url: storeUrl(links.origin, b.storeId),
      address: postalAddress(b.storeAddress),
      ...(b.storePhone ? { telephone: b.storePhone } : {}),
    },
    startTime: toTokyoIso(b.start),
    endTime: toTokyoIso(b.end),
    partySize: b.partySize,
    modifyReservationUrl: links.modify,
  };
}
