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

/** Who an account belongs to: a diner, or a member of a restaurant's staff (linked to its stores). */
export const USER_ROLES = ['diner', 'staff'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** A row of the bookings table: a diner's booking, or a table the store holds itself (a block). */
export const BOOKING_KINDS = ['booking', 'block'] as const;
export type BookingKind = (typeof BOOKING_KINDS)[number];

/** What the store marks on a booking at the door. */
export const ATTENDANCES = ['arrived', 'no_show'] as const;
export type Attendance = (typeof ATTENDANCES)[number];
