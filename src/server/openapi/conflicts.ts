/** The wording of the booking operations' conflicts (409) and of telling a store one is late, shared by the diner's and the store's calls. */
import type { ErrorCode } from '../../lib/contract/errors';

/** What a 409 of the booking operations may say, by `error.code`. */
export const CONFLICT = {
  slot_taken: 'the start was taken meanwhile; `next_slots` offers the nearest free starts that day, each with its fee',
  duplicate_booking:
    'the diner (account, phone, e-mail or device) already holds a booking at this store overlapping in time (利用規約 第4条); `booking_url` links to it when the asker may see it',
  not_changeable: 'the booking is cancelled or has started',
  change_needs_store: 'the cancellation fee is due now, so a change of time or party is made by calling the store (`phone`)',
  idempotency_key_in_flight: 'the first request with this Idempotency-Key is still being answered; try again after Retry-After',
} satisfies Partial<Record<ErrorCode, string>>;
export const bookConflicts = { slot_taken: CONFLICT.slot_taken, duplicate_booking: CONFLICT.duplicate_booking };
export const changeConflicts = {
  slot_taken: CONFLICT.slot_taken,
  duplicate_booking: 'a change onto a time the diner already holds another booking at this store overlapping',
  not_changeable: CONFLICT.not_changeable,
  change_needs_store: CONFLICT.change_needs_store,
};
export const cancelConflicts = { not_changeable: CONFLICT.not_changeable };
export const lateConflicts = {
  not_changeable: 'not upcoming: cancelled, marked at the door, or outside the window from 2 hours before the start to the end of the store’s grace period',
};
export const LATE_SUMMARY =
  'Tell the store the party is on its way (`on_way`) or 10 or 15 minutes late (`late_10`, `late_15`); the latest notice is kept with its time and shown live on the store’s ledger';
