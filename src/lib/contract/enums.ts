/**
 * The fixed vocabularies of Sugu: kinds of table, genres of restaurant and a booking's status.
 * The database enums, the schemas, the seed and the islands are all built from these lists.
 */

/** Seat kinds, in the order the booking form offers them. */
export const TABLE_KINDS = ['counter', 'table', 'private_room', 'tatami'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

export const GENRES = ['izakaya', 'yakitori', 'yakiniku', 'sushi', 'ramen', 'washoku', 'italian', 'french', 'chinese', 'korean', 'cafe_bar', 'steak'] as const;
export type Genre = (typeof GENRES)[number];

export const BOOKING_STATUSES = ['confirmed', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
