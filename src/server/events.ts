import { EventEmitter } from 'node:events';
import { availabilityEvents } from './db/schema';
import type { Db } from './db/client';

/**
 * Availability changes: every booking, edit or cancellation announces the stores it touched.
 * Subscribers in this process hear it on `availabilityBus`; the live-update stream builds on it.
 */
export const availabilityBus = new EventEmitter();
availabilityBus.setMaxListeners(0);

export interface AvailabilityChange {
  /** Id of the event row, for resuming a stream. */
  id: number;
  storeId: number;
}

/** Records and announces that these stores' availability changed. Call after the change commits. */
export async function publishAvailabilityChange(db: Db, storeIds: readonly number[]): Promise<void> {
  const unique = [...new Set(storeIds)];
  if (!unique.length) return;
  const rows = await db
    .insert(availabilityEvents)
    .values(unique.map((storeId) => ({ storeId })))
    .returning({ id: availabilityEvents.id, storeId: availabilityEvents.storeId });
  for (const row of rows) availabilityBus.emit('change', row satisfies AvailabilityChange);
}
