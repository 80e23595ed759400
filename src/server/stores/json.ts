/**
 * The JSON shapes of the API for stores, cards and slots: what `/api/stores` and `/api/stores/{id}`
 * answer, the genre's label in the diner's language.
 */
import type { Slot } from '../availability';
import { toTokyoIso } from '../../lib/datetime';
import type { T } from '../../i18n';
import type { SlotJson } from '../../lib/contract/responses';
import type { StoreCard, StorePage, BeyondCard, BeyondGroupResult } from './search';
import type { StoreDetail } from './detail';

export const slotJson = (s: Slot): SlotJson => ({ start: toTokyoIso(s.start), end: toTokyoIso(s.end), free_tables: s.freeTables });

type StoreFacts = Pick<StoreDetail, 'id' | 'name' | 'nameKana' | 'genre' | 'areaId' | 'areaName' | 'station' | 'walkMinutes' | 'budgetMin' | 'budgetMax'>;

/** What every store the API answers with says of itself (an item, a page); the genre's label in the diner's language. */
function storeFactsJson(c: StoreFacts, t: T) {
  return {
    id: c.id,
    name: c.name,
    name_kana: c.nameKana,
    genre: c.genre,
    genre_label: t(`discovery.genre.${c.genre}`),
    area: { id: c.areaId, name: c.areaName },
    station: c.station,
    walk_minutes: c.walkMinutes,
    budget: { min: c.budgetMin, max: c.budgetMax },
  };
}

/** A store card as the API answers it. */
export function cardJson(c: StoreCard, t: T) {
  return {
    ...storeFactsJson(c, t),
    photo: c.photo,
    lat: c.lat,
    lng: c.lng,
    distance_m: c.distanceM,
    arrival: c.arrival ? toTokyoIso(c.arrival) : null,
    bookable_now: c.nextSlots.length > 0,
    next_slots: c.nextSlots.map(slotJson),
    free_tables: c.freeTables,
  };
}

/** A store of a group after "now" as the API answers it. */
export function beyondCardJson(c: BeyondCard, t: T) {
  return {
    ...storeFactsJson(c, t),
    photo: c.photo,
    next_slot: slotJson(c.next),
  };
}

/** A listing page as `GET /api/stores` answers it. */
export function storePageJson(page: StorePage, t: T) {
  const group = (g: BeyondGroupResult) => ({ items: g.items.map((c) => beyondCardJson(c, t)), total: g.total });
  return {
    items: page.items.map((c) => cardJson(c, t)),
    page: page.page,
    per_page: page.perPage,
    total: page.total,
    later_today: page.beyond && group(page.beyond.later),
    another_day: page.beyond && group(page.beyond.another),
  };
}

/** One store as `GET /api/stores/{id}` answers it. */
export function storeJson(s: StoreDetail, t: T) {
  return {
    ...storeFactsJson(s, t),
    address: s.address,
    lat: s.lat,
    lng: s.lng,
    phone: s.phone,
    description: s.description,
    photos: s.photos,
    stay_minutes: s.stayMinutes,
    turn_times: s.turnTimes.map(([party, minutes]) => ({ party_size: party, minutes })),
    cancellation_policy: s.cancellationPolicy,
    tags: s.tags,
    hours: s.hours.map((h) => ({ weekday: h.weekday, opens_min: h.opensMin, closes_min: h.closesMin })),
    closures: s.closures.map((c) => ({
      date: c.date,
      closed: c.hours.length === 0,
      hours: c.hours.map(([opens, closes]) => ({ opens_min: opens, closes_min: closes })),
    })),
    max_party: s.maxParty,
  };
}
