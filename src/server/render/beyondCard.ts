/**
 * One store of a search's groups after "now" (later today, another day) as one string: name,
 * genre, access, budget and its next free start as a link to the booking form with it chosen.
 * The whole card opens the store, as a listing card does; the start is its own target above it.
 * Smaller than a listing card (no photo, no live counts): the groups are a look ahead, not the list.
 */
import type { T } from '../../i18n';
import type { Locale } from '../../i18n/locales';
import type { BeyondCard } from '../stores/search';
import { formatTime, formatWhen, toTokyoIso } from '../../lib/datetime';
import { formatYenRange } from '../../lib/format';
import { bookingPaths, storePath } from '../../lib/contract/paths';
import type { BeyondGroup, TableKind } from '../../lib/contract/enums';
import { attr, text } from './html';
import { storeNameHtml, storeText } from './storeCard';
import { placeName, stationName } from '../../lib/storeText';

export interface BeyondCardOptions {
  group: BeyondGroup;
  party: number;
  signedIn: boolean;
  seat?: TableKind;
}

export function beyondCardHtml(c: BeyondCard, o: BeyondCardOptions, locale: Locale, t: T): string {
  const iso = toTokyoIso(c.next.start);
  // Later today the time is enough (翌0:30 past midnight); another day needs its date.
  const when = o.group === 'later' ? formatTime(c.next.start, t) : formatWhen(c.next.start, locale, t);
  const [accessBefore = '', accessAfter = ''] = t('discovery.card.access', { station: '\u0000', minutes: c.walkMinutes }).split('\u0000');
  return (
    `<article class="relative rounded-box bg-base-200 p-3"${attr('data-beyond-store-id', c.id)}${attr('data-next-start', iso)}>` +
    `<h3 class="font-semibold leading-snug"><a${attr('href', storePath(c.id, o.party, o.seat))} class="link-hover after:absolute after:inset-0" data-store-link>${storeNameHtml(c.name, c.nameKana, locale)}</a></h3>` +
    `<p class="text-xs text-base-content/70"><span class="badge badge-ghost badge-sm">${text(t(`discovery.genre.${c.genre}`))}</span><span>${storeText(placeName(c.areaName, locale, t), locale)}</span> ・ ` +
    `<span class="break-keep">${text(accessBefore)}${storeText(stationName(c.station, locale, t), locale)}${text(accessAfter)}</span> ・ ` +
    `<span>${text(t('discovery.card.budget'))}: ${text(formatYenRange(c.budgetMin, c.budgetMax, locale))}</span></p>` +
    `<p class="mt-1 flex flex-wrap items-center gap-2 text-sm"><span>${text(t('discovery.beyond.next'))}</span>` +
    `<a${attr('href', bookingPaths.book(c.id, o.signedIn, o.party, iso, o.seat))} class="btn btn-outline start-link relative z-[1]" data-beyond-start><time${attr('datetime', iso)}>${text(when)}</time></a></p>` +
    `</article>`
  );
}
