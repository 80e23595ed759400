/**
 * What the availability stream (`/api/availability/stream`) sends for one store and party: the
 * server writes it (src/server/live.ts), the pages' state reads it (src/state/liveAvailability.ts).
 */
export interface LiveAvailability {
  store_id: number;
  /** Fitting tables free at the first bookable start (0: full for the next hour). */
  free_tables: number;
  /** Bookable starts within the next hour, ISO 8601 with +09:00. */
  next_slots: string[];
  /**
   * The last change to the store this instance heard of (0: none since it started). It moves on
   * every booking change, also one on another day, so pages showing a whole day (the store page's
   * slots) know to read it again.
   */
  rev?: number;
}
