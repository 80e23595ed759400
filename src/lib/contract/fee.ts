/**
 * The cancellation-fee rule, one source for the server (src/server/bookings/fee.ts words it) and
 * the islands (the change's confirm step). A store's policy is free cancelling until `freeHours`
 * before the start, then `feeYen` per person.
 *
 * Once cancelling would cost the fee, the booking's start and party are what the store is holding
 * the table for: moving the start, or making the party smaller, is a cancellation of what is held
 * as far as the fee goes. Such a change is refused online and the diner is sent to the store's
 * phone, so no sequence of changes ends with less due than cancelling straight away would cost. A
 * larger party (the fee grows with it), a seat preference or a note may still change online. A
 * booking cancelled by the store costs the diner nothing.
 *
 * What a booking owes once it is over (`feeOwed`, the store's list of fees): a cancellation by the
 * diner owes the fee as it stood when they cancelled (due inside the window, nothing before it); a
 * no-show owes the same fee as cancelling at the start would — the full late-cancellation fee for
 * the party booked, never more (the policy the diner agreed to speaks of one fee for both).
 */
import { MINUTE_MS } from '../datetime';
import type { FeeReason } from './enums';

export interface FeePolicy {
  /** Free until this many hours before the start. */
  freeHours: number;
  /** Per person after that; 0: the store charges nothing. */
  feeYen: number;
}

export type Fee =
  | { applies: 'none' }
  /** Free now; the fee applies from `freeUntil` on. */
  | { applies: 'free'; freeUntil: Date; perPerson: number; total: number }
  /** Cancelling now costs the fee. */
  | { applies: 'due'; perPerson: number; total: number };

/**
 * The fee for cancelling a booking of `party` starting at `start`, asked at `now`. The free window
 * ends at the deadline itself: cancelling exactly `freeHours` before the start is charged.
 * @example cancellationFee({ freeHours: 2, feeYen: 2000 }, new Date('2026-11-20T18:00:00+09:00'), 4, new Date('2026-11-20T17:26:00+09:00'))
 *   // { applies: 'due', perPerson: 2000, total: 8000 }
 */
export function cancellationFee(policy: FeePolicy, start: Date, party: number, now: Date): Fee {
  if (policy.feeYen <= 0) return { applies: 'none' };
  const charge = { perPerson: policy.feeYen, total: policy.feeYen * party };
  const freeUntil = new Date(start.getTime() - policy.freeHours * 60 * MINUTE_MS);
  return now.getTime() < freeUntil.getTime() ? { applies: 'free', freeUntil, ...charge } : { applies: 'due', ...charge };
}

/** What a booking holds, or what a change asks for. */
export interface Held {
  start: Date;
  party: number;
}

/**
 * Whether changing `held` to `wanted` at `now` must go through the store (refused online): the fee
 * is due on what is held, and the change moves the start or makes the party smaller.
 */
export function changeNeedsStore(policy: FeePolicy, held: Held, wanted: Held, now: Date): boolean {
  return cancellationFee(policy, held.start, held.party, now).applies === 'due' && givesUpHeld(held, wanted);
}

/** The part of the rule the change's confirm step applies to the fee the page was given: the change moves the start or shrinks the party. */
export const givesUpHeld = (held: Held, wanted: Held): boolean => wanted.start.getTime() !== held.start.getTime() || wanted.party < held.party;

/** A booking as far as what it owes goes. */
export interface Settled {
  start: Date;
  party: number;
  status: 'confirmed' | 'cancelled';
  /** When it was cancelled (by the diner or the store). */
  cancelledAt: Date | null;
  /** Cancelled by the store: the diner owes nothing. */
  cancelledByStore: boolean;
  attendance: 'arrived' | 'no_show' | null;
}

/** A fee a booking owes: why, and how much. */
export interface Owed {
  reason: FeeReason;
  perPerson: number;
  total: number;
}

/**
 * What `b` owes under `policy`, or null when nothing: a late cancellation by the diner, or a no-show
 * (the fee of cancelling at the start itself, which is always inside the window).
 * @example feeOwed({ freeHours: 2, feeYen: 2000 }, { start, party: 3, status: 'confirmed', cancelledAt: null, cancelledByStore: false, attendance: 'no_show' })
 *   // { reason: 'no_show', perPerson: 2000, total: 6000 }
 */
export function feeOwed(policy: FeePolicy, b: Settled): Owed | null {
  const at = b.status === 'cancelled' ? (b.cancelledByStore ? null : b.cancelledAt) : b.attendance === 'no_show' ? b.start : null;
  if (!at) return null;
  const fee = cancellationFee(policy, b.start, b.party, at);
  if (fee.applies !== 'due') return null;
  return { reason: b.status === 'cancelled' ? 'late_cancellation' : 'no_show', perPerson: fee.perPerson, total: fee.total };
}
