/**
 * One store in a listing (photo, name, genre, access, budget, next free starts, free tables,
 * distance, heart) as one string, kept by what it shows. A listing page renders twenty of them per
 * request: as Astro markup each was dozens of expressions and stream chunks, the largest part of
 * the page's rendering (docs/availability-index.md, "Listing pages under load").
 *
 * `cardView` reduces a card to everything the markup shows, and `render` reads nothing else (and
 * the translator, fixed by the locale): the view in JSON with the locale is therefore the whole
 * key of the kept markup, so a changed start, count, name or heart is a different key and never
 * an old card. Nothing else needs invalidating; the oldest entries go beyond MAX_ENTRIES.
 */
import type { T } from '../../i18n';
import type { Locale } from '../../i18n/locales';
import type { StoreCard } from '../stores/search';
import { formatTime, toTokyoIso } from '../../lib/datetime';
import { formatYenRange } from '../../lib/format';
import { formatDistance } from '../../lib/distance';
import { bookingPaths, storePath } from '../../lib/contract/paths';
import type { TableKind } from '../../lib/contract/enums';
import { attr, text } from './html';
import { BoundedCache } from '../../lib/boundedCache';
import { heartHtml } from './heart';
import { inJapanese, placeName, shownName, stationName } from '../../lib/storeText';

export interface CardOptions {
  favourite: boolean;
  signedIn: boolean;
  party: number;
  /** The first card's photo is the listing's largest paint: fetched at once, ahead of the rest. */
  priority: boolean;
  /** False when the starts shown are not the live stream's (a seat kind was asked for). */
  live: boolean;
  /** The seat kind the listing asked for: the card's starts are for it, and its links keep it. */
  seat?: TableKind;
  /** The first heart of the page defines the shape the others use. */
  defineHeart: boolean;
}

/** Markup kept for this many distinct cards (a few KB each): every store's, in a few parties and languages. */
export const keptCards = new BoundedCache<string, string>(4_000);

/** What the markup shows of a card: plain strings and numbers. */
function cardView(c: StoreCard, o: CardOptions) {
  return {
    id: c.id,
    name: c.name,
    nameKana: c.nameKana,
    genre: c.genre,
    areaName: c.areaName,
    station: c.station,
    walkMinutes: c.walkMinutes,
    budgetMin: c.budgetMin,
    budgetMax: c.budgetMax,
    photo: c.photo && { src: c.photo.src, width: c.photo.width, height: c.photo.height, alt: c.photo.alt },
    lat: c.lat,
    lng: c.lng,
    distanceM: c.distanceM,
    starts: c.nextSlots.slice(0, 3).map((s) => s.start.getTime()),
    freeTables: c.freeTables,
    arrival: c.arrival?.getTime() ?? null,
    ...o,
  };
}
type CardView = ReturnType<typeof cardView>;

export function storeCardHtml(card: StoreCard, options: CardOptions, locale: Locale, t: T): string {
  const view = cardView(card, options);
  const key = `${locale}\u0000${JSON.stringify(view)}`;
  let html = keptCards.get(key);
  if (html === undefined) {
    html = render(view, locale, t);
    keptCards.set(key, html);
  }
  return html;
}

const SLOT_CLASS = 'btn btn-outline start-link';

/** Text the store wrote in Japanese, marked so, for readers of another language. */
export const storeText = (shown: string, locale: Locale) => (inJapanese(shown, locale) ? `<span lang="ja">${text(shown)}</span>` : text(shown));

/** The store's name as the reader's language shows it: romanised, with the Japanese after it, outside Japanese. */
export function storeNameHtml(name: string, kana: string, locale: Locale): string {
  const shown = shownName(name, kana, locale);
  return shown.original ? `${text(shown.name)} <span lang="ja" class="font-normal">(${text(shown.original)})</span>` : text(shown.name);
}

function render(v: CardView, locale: Locale, t: T): string {
  const name = shownName(v.name, v.nameKana, locale);
  const nameHtml = storeNameHtml(v.name, v.nameKana, locale);
  const nameLabel = name.original ? `${name.name} (${name.original})` : name.name;
  // The station sits in its own element, marked Japanese when it is still the store's wording.
  const [accessBefore = '', accessAfter = ''] = t('discovery.card.access', { station: '\u0000', minutes: v.walkMinutes }).split('\u0000');
  const station = stationName(v.station, locale, t);
  const href = storePath(v.id, v.party, v.seat);
  const bookable = v.starts.length > 0;
  // Each start is a link to the booking form with it chosen: one tap here, one to confirm.
  const bookBase = bookingPaths.book(v.id, v.signedIn, v.party, undefined, v.seat);
  // The count sits in its own element so that live updates (LiveCounts) can replace just the number.
  const [freeBefore = '', freeAfter = ''] = t('common.freeTables', { count: '\u0000' }).split('\u0000');
  const arrival = v.arrival === null ? null : new Date(v.arrival);
  const arrivalIso = arrival && toTokyoIso(arrival);
  const photo = v.photo
    ? `<img${attr('src', v.photo.src)}${attr('width', v.photo.width)}${attr('height', v.photo.height)}${attr('alt', v.photo.alt)}${attr('lang', inJapanese(v.photo.alt, locale) ? 'ja' : undefined)}${attr('loading', v.priority ? 'eager' : 'lazy')}` +
      `${attr('fetchpriority', v.priority ? 'high' : undefined)}${attr('decoding', v.priority ? undefined : 'async')} class="h-full w-full object-cover">`
    : '<div class="h-full w-full bg-base-300" aria-hidden="true"></div>';
  const starts = v.starts.map((ms) => {
    const start = new Date(ms);
    const iso = toTokyoIso(start);
    return `<a data-live-slot${attr('href', bookingPaths.book(v.id, v.signedIn, v.party, iso, v.seat))} class="${SLOT_CLASS}"><time${attr('datetime', iso)}>${text(formatTime(start, t))}</time></a>`;
  });
  if (!bookable) starts.push(`<a data-live-slot class="${SLOT_CLASS}" hidden><time datetime="00:00"></time></a>`); // LiveCounts' pattern; an empty <time> needs a datetime
  return (
    `<article class="card card-side store-card"${attr('data-store-id', v.id)}${attr('data-live-store', v.live ? v.id : undefined)}${attr('data-live-party', v.party)}` +
    `${attr('data-distance', v.distanceM ?? undefined)}${attr('data-lat', v.lat)}${attr('data-lng', v.lng)}${attr('data-arrival', arrivalIso ?? undefined)}${attr('data-live-from', arrivalIso ?? undefined)}>` +
    `<figure class="w-28 shrink-0 sm:w-40">${photo}</figure><div class="card-body min-w-0 gap-1 p-3">` +
    `<h2 class="card-title text-base leading-snug"><a${attr('href', href)} class="link-hover after:absolute after:inset-0" data-store-link>${nameHtml}</a></h2>` +
    `<p class="text-xs text-base-content/70"><span class="badge badge-ghost badge-sm">${text(t(`discovery.genre.${v.genre}`))}</span><span>${storeText(placeName(v.areaName, locale, t), locale)}</span> ・ ` +
    `<span class="break-keep">${text(accessBefore)}${storeText(station, locale)}${text(accessAfter)}</span>` +
    (v.distanceM !== null
      ? `<span class="font-semibold text-base-content" data-distance-label>・${text(t('discovery.card.distance', { distance: formatDistance(v.distanceM) }))}</span>`
      : '') +
    `</p><p class="text-xs">${text(t('discovery.card.budget'))}: ${text(formatYenRange(v.budgetMin, v.budgetMax, locale))}</p>` +
    `<div class="flex flex-wrap items-center gap-1 text-sm" data-live-when-bookable${attr('hidden', !bookable)}><span class="sr-only">${text(t('discovery.card.nextSlots'))}</span>` +
    `<span data-live-slots data-live-slots-max="3"${attr('data-live-slot-href', bookBase)} class="relative z-[1] flex flex-wrap gap-1">${starts.join('')}</span>` +
    `<span class="badge badge-success badge-sm"><span>${text(freeBefore)}<span data-live-free>${v.freeTables}</span>${text(freeAfter)}</span></span></div>` +
    (arrival ? `<p class="text-xs text-base-content/70" data-arrival>${text(t('discovery.card.arrival', { time: formatTime(arrival, t) }))}</p>` : '') +
    `<p class="text-sm text-base-content/70" data-live-when-full${attr('hidden', bookable)}>${text(arrival ? t('discovery.card.unreachable') : t('discovery.card.notNow', { count: v.party }))}</p></div>` +
    // On the photo's corner (the card's start): a 44 px target in the text's corner covered the ends of its lines.
    `<div class="absolute start-1 top-1 z-10">${heartHtml({ storeId: v.id, storeName: nameLabel, on: v.favourite, signedIn: v.signedIn, variant: 'icon', defineHeart: v.defineHeart }, t)}</div></article>`
  );
}
