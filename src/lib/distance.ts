import { MINUTE_MS } from './datetime';

/**
 * Walking pace for arrival-aware starts: 80 m a minute, the pace Japanese listings use for 徒歩N分
 * (不動産の表示に関する公正競争規約). Distances are straight lines, so the margin covers the detours,
 * the lift and finding the door.
 */
export const WALK_METRES_PER_MIN = 80;
export const ARRIVAL_MARGIN_MIN = 5;
/** How far past the bookable-now hour a card looks for the first start a walking diner can make. */
export const ARRIVAL_LOOKAHEAD_MIN = 180;

/** Whole minutes to walk a straight-line distance, with the margin. */
export const walkMinutesFor = (metres: number) => Math.ceil(metres / WALK_METRES_PER_MIN) + ARRIVAL_MARGIN_MIN;

/** The earliest instant (epoch ms) a diner leaving now can be at a store this far away on foot. */
export const arrivalMs = (now: Date, metres: number) => now.getTime() + walkMinutesFor(metres) * MINUTE_MS;

/**
 * A distance as a diner reads it: metres to the nearest 10 below 1 km, else kilometres.
 * @example formatDistance(348) // '350m'
 * @example formatDistance(1234) // '1.2km'
 */
export function formatDistance(metres: number): string {
  if (metres < 1000) return `${Math.max(10, Math.round(metres / 10) * 10)}m`;
  return `${(metres / 1000).toFixed(metres < 10_000 ? 1 : 0)}km`;
}
