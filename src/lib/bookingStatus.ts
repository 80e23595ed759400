/**
 * The status a diner reads for a booking: a confirmed booking whose stay has ended reads 過去の予約
 * (past), not 予約確定. The stored status stays `confirmed`; this is how it is shown.
 */
import type { BookingStatus } from './contract/enums';

export type ShownStatus = BookingStatus | 'past';

export function shownStatus(status: BookingStatus, end: Date | string, now = new Date()): ShownStatus {
  if (status !== 'confirmed') return status;
  return new Date(end).getTime() <= now.getTime() ? 'past' : 'confirmed';
}
