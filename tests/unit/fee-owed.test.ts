/**
 * What a booking owes once it is over (src/lib/contract/fee.ts `feeOwed`): a diner's cancellation
 * inside the window owes the fee as it stood then, one before it nothing, the store's own
 * cancellation nothing; a no-show owes the late-cancellation fee for the party booked, whatever the
 * window; a store without a fee is owed nothing. As a property: a no-show never owes less than any
 * cancellation of the same booking would have.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cancellationFee, feeOwed, type Settled } from '../../src/lib/contract/fee';

const MIN = 60_000;
const start = new Date('2026-11-20T19:00:00+09:00');
const policy = { freeHours: 2, feeYen: 2000 };
const booking = (over: Partial<Settled>): Settled => ({
  start,
  party: 3,
  status: 'confirmed',
  cancelledAt: null,
  cancelledByStore: false,
  attendance: null,
  ...over,
});

describe('feeOwed', () => {
  it('charges a diner’s late cancellation, not an early one nor the store’s', () => {
    expect(feeOwed(policy, booking({ status: 'cancelled', cancelledAt: new Date(start.getTime() - 90 * MIN) }))).toEqual({
      reason: 'late_cancellation',
      perPerson: 2000,
      total: 6000,
    });
    // The deadline itself is charged, as cancelling then is.
    expect(feeOwed(policy, booking({ status: 'cancelled', cancelledAt: new Date(start.getTime() - 120 * MIN) }))?.total).toBe(6000);
    expect(feeOwed(policy, booking({ status: 'cancelled', cancelledAt: new Date(start.getTime() - 121 * MIN) }))).toBeNull();
    expect(feeOwed(policy, booking({ status: 'cancelled', cancelledAt: new Date(start.getTime() - 10 * MIN), cancelledByStore: true }))).toBeNull();
  });

  it('charges a no-show the late-cancellation fee; an arrival or an open booking owes nothing', () => {
    expect(feeOwed(policy, booking({ attendance: 'no_show' }))).toEqual({ reason: 'no_show', perPerson: 2000, total: 6000 });
    expect(feeOwed({ freeHours: 0, feeYen: 1000 }, booking({ attendance: 'no_show', party: 2 }))).toEqual({ reason: 'no_show', perPerson: 1000, total: 2000 });
    expect(feeOwed(policy, booking({ attendance: 'arrived' }))).toBeNull();
    expect(feeOwed(policy, booking({}))).toBeNull();
    expect(feeOwed({ freeHours: 2, feeYen: 0 }, booking({ attendance: 'no_show' }))).toBeNull();
  });

  it('reckons from the basis a store’s change left: a due fee moved a week on, a free one moved into the window', () => {
    const weekLater = new Date(start.getTime() + 7 * 24 * 60 * MIN);
    // Moved by the store a week on after the fee fell due, for one instead of three: still the fee for three.
    const moved = { start: weekLater, party: 1, basis: { start, party: 3 } };
    expect(feeOwed(policy, booking({ ...moved, status: 'cancelled', cancelledAt: new Date(start.getTime() + 60 * MIN) }))).toEqual({
      reason: 'late_cancellation',
      perPerson: 2000,
      total: 6000,
    });
    expect(feeOwed(policy, booking({ ...moved, attendance: 'no_show' }))?.total).toBe(6000);
    // Moved by the store from a week on to tonight: cancelling before the old deadline costs nothing.
    const early = { start, party: 3, basis: { start: weekLater, party: 3 } };
    expect(feeOwed(policy, booking({ ...early, status: 'cancelled', cancelledAt: new Date(start.getTime() - 30 * MIN) }))).toBeNull();
  });

  it('never lets a no-show owe less than cancelling the same booking at any moment would', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 48 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: -3 * 24 * 60, max: 0 }),
        (freeHours, feeYen, party, minutes) => {
          const p = { freeHours, feeYen };
          const noShow = feeOwed(p, booking({ party, attendance: 'no_show' }))?.total ?? 0;
          const cancelledAt = new Date(start.getTime() + minutes * MIN);
          const cancelled = feeOwed(p, booking({ party, status: 'cancelled', cancelledAt }))?.total ?? 0;
          const rule = cancellationFee(p, start, party, cancelledAt);
          expect(cancelled).toBe(rule.applies === 'due' ? rule.total : 0);
          expect(noShow).toBeGreaterThanOrEqual(cancelled);
        },
      ),
    );
  });
});
