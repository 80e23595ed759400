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

/**
 * What the starts are offered for, which words their cancellation fee: booking a start, or moving a
 * booking to it (the availability API's `offer`).
 */
export const FEE_OFFERS = ['book', 'change'] as const;
export type FeeOffer = (typeof FEE_OFFERS)[number];

/**
 * Who an account belongs to: a diner, a member of a restaurant's staff (linked to its stores), or
 * the platform's own admin (no company; creates companies and their first store).
 */
export const USER_ROLES = ['diner', 'staff', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** What an invitation makes of the staff account it creates: the company's owner (who may invite), or staff. */
export const INVITATION_ROLES = ['owner', 'staff'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

/**
 * A row of the bookings table: a diner's booking (online or written down by the store from a phone
 * call), a table the store holds itself (a block), or a party seated at the door without booking
 * (a walk-in: its party size and optional name, held for its turn time).
 */
export const BOOKING_KINDS = ['booking', 'block', 'walk_in'] as const;
export type BookingKind = (typeof BOOKING_KINDS)[number];

/**
 * Where a fee the fee rule made due stands (src/lib/contract/fee.ts `feeOwed`): still `due`,
 * `waived` by the store, or `collected` by the store itself, outside Sugu (Sugu takes no payment).
 */
export const FEE_STATES = ['due', 'waived', 'collected'] as const;
export type FeeState = (typeof FEE_STATES)[number];

/** Why a booking owes the fee: cancelled by the diner inside the window, or marked a no-show by the store. */
export const FEE_REASONS = ['late_cancellation', 'no_show'] as const;
export type FeeReason = (typeof FEE_REASONS)[number];

/** What the store marks on a booking at the door. */
export const ATTENDANCES = ['arrived', 'no_show'] as const;
export type Attendance = (typeof ATTENDANCES)[number];

/** What a diner tells the store on the way: coming now, or 10 or 15 minutes late. */
export const LATE_NOTICES = ['on_way', 'late_10', 'late_15'] as const;
export type LateNotice = (typeof LATE_NOTICES)[number];

/**
 * Orders a listing offers besides its default (nearest first with a position, else a stable order):
 * nearest (by the diner's position, else by the walk from the station), soonest start, budget.
 */
export const LIST_SORTS = ['nearest', 'soonest', 'budget'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/**
 * Store tags a listing can filter on: the URL key and the tag as stores carry it. Only these are
 * offered (and only those some store carries); other tags are shown on the store page alone.
 */
export const FILTER_TAGS = {
  non_smoking: '禁煙',
  all_you_can_drink: '飲み放題あり',
  private_room: '個室あり',
  near_station: '駅近',
  late_night: '深夜営業',
  open_24h: '24時間営業',
  private_hire: '貸切可',
  kids_welcome: '子連れ歓迎',
  credit_card: 'クレジットカード可',
} as const;
export type FilterTag = keyof typeof FILTER_TAGS;
export const FILTER_TAG_KEYS = Object.keys(FILTER_TAGS) as [FilterTag, ...FilterTag[]];

/** The groups a search shows after the stores bookable now: a later start today, or on another day. */
export const BEYOND_GROUPS = ['later', 'another'] as const;
export type BeyondGroup = (typeof BEYOND_GROUPS)[number];
