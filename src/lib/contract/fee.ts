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
 * A change the store makes (a move at the diner's call, a table the store needs) is the store's
 * agreement, so it is never refused for the fee; and it leaves the diner's fee where it stood
 * (`feeBasisAfter`): a fee already due stays due, for the party it was due for, wherever the
 * booking moves; a fee not yet due is not brought nearer or made larger — the diner stays free to
 * cancel until the later of the two deadlines, and owes at most for the smaller party. The fee is
 * then reckoned from that basis (the booking's `fee_starts_at`/`fee_party_size`), not from the
 * start and party it now holds.
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
 * is due (on `basis`, what the fee is reckoned from: `held` unless the store changed the booking),
 * and the change moves the start or makes the party smaller.
 */
export function changeNeedsStore(policy: FeePolicy, held: Held, wanted: Held, now: Date, basis: Held = held): boolean {
  return cancellationFee(policy, basis.start, basis.party, now).applies === 'due' && givesUpHeld(held, wanted);
}

/** Whether cancelling what `basis` holds would cost the fee at `now` (whatever the fee's amount, none included). */
const pastDeadline = (policy: FeePolicy, basis: Held, now: Date) => now.getTime() >= basis.start.getTime() - policy.freeHours * 60 * MINUTE_MS;

/**
 * What the fee is reckoned from once `held` (the booking's start and party, its fee reckoned from
 * `basis`) is changed to `wanted` at `now`, by the diner or by the store. A change of neither start
 * nor party leaves it. The diner's own change (only ever allowed by `changeNeedsStore`) is what
 * they hold from then on, except that a fee already due stays due from its start, only larger with
 * a larger party. The store's change leaves a due fee as it stood, and a fee not yet due no nearer
 * and no larger: the later start, the smaller party.
 * @example feeBasisAfter(policy, { held: b, basis: b, wanted: { start: weekLater, party: 2 }, now: insideWindow, by: 'store' }) // b: still due
 */
export function feeBasisAfter(policy: FeePolicy, c: { held: Held; basis: Held; wanted: Held; now: Date; by: 'diner' | 'store' }): Held {
  const { held, basis, wanted } = c;
  if (wanted.start.getTime() === held.start.getTime() && wanted.party === held.party) return basis;
  const due = pastDeadline(policy, basis, c.now);
  if (c.by === 'diner') return due ? { start: basis.start, party: Math.max(basis.party, wanted.party) } : wanted;
  if (due) return basis;
  return { start: new Date(Math.max(basis.start.getTime(), wanted.start.getTime())), party: Math.min(basis.party, wanted.party) };
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
  /** What the fee is reckoned from when a change the store made left it where it stood (`feeBasisAfter`); else `start` and `party`. */
  basis?: Held;
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
  const basis = b.basis ?? { start: b.start, party: b.party };
  // A no-show is reckoned at the start the fee counts from, which is always inside the window.
  const at = b.status === 'cancelled' ? (b.cancelledByStore ? null : b.cancelledAt) : b.attendance === 'no_show' ? basis.start : null;
  if (!at) return null;
  const fee = cancellationFee(policy, basis.start, basis.party, at);
  if (fee.applies !== 'due') return null;
  return { reason: b.status === 'cancelled' ? 'late_cancellation' : 'no_show', perPerson: fee.perPerson, total: fee.total };
}

/**
 * The store's own cancellation wording as shown under the fee line: a store's text often opens with
 * the very sentence the fee line already says (キャンセル料はかかりません。), which is then not said
 * twice. `null` when nothing is left to add; the store having written nothing is the caller's 特になし.
 * @example policyBesideFee('キャンセル料はかかりません。', 'キャンセル料はかかりません。お早めにご連絡ください。') // 'お早めにご連絡ください。'
 */
export function policyBesideFee(feeMessage: string, policy: string): string | null {
  const text = policy.trim();
  if (!text) return '';
  const said = feeMessage.trim();
  if (said && text.startsWith(said)) return text.slice(said.length).trim() || null;
  return text;
}
