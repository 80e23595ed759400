/**
 * A distance as a diner reads it: metres to the nearest 10 below 1 km, else kilometres.
 * @example formatDistance(348) // '350m'
 * @example formatDistance(1234) // '1.2km'
 */
export function formatDistance(metres: number): string {
  if (metres < 1000) return `${Math.max(10, Math.round(metres / 10) * 10)}m`;
  return `${(metres / 1000).toFixed(metres < 10_000 ? 1 : 0)}km`;
}
