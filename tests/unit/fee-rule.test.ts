/**
 * The fee rule (src/lib/contract/fee.ts) as a property: whatever a diner does with a booking —
 * moves, party changes, at any moment before it starts — cancelling at the end never costs less
 * than cancelling straight away would have at any moment on the way. The same with the store's
 * changes mixed in, and a change the store makes never makes cancelling cost more at any moment after it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cancellationFee, changeNeedsStore, feeBasisAfter, type FeePolicy, type Held } from '../../src/lib/contract/fee';
import { bookingFee } from '../../src/server/bookings/json';
import type { BookingView } from '../../src/server/bookings/view';
import { translatorFor } from '../../src/i18n';

const MIN = 60_000;
const T0 = Date.parse('2026-11-20T12:00:00+09:00');

type Action = { kind: 'move'; after: number; to: number } | { kind: 'party'; after: number; to: number };

const policyArb = fc.record({ freeHours: fc.integer({ min: 0, max: 48 }), feeYen: fc.integer({ min: 0, max: 10_000 }) });
// Minutes after the previous action, and starts as minutes after T0 on the 15-minute grid, up to two weeks.
const afterArb = fc.integer({ min: 0, max: 3 * 24 * 60 });
const startArb = fc.integer({ min: 0, max: 14 * 24 * 4 }).map((q) => q * 15);
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('move' as const), after: afterArb, to: startArb }),
  fc.record({ kind: fc.constant('party' as const), after: afterArb, to: fc.integer({ min: 1, max: 12 }) }),
);

const cost = (policy: FeePolicy, start: number, party: number, now: number) => {
  const fee = cancellationFee(policy, new Date(start), party, new Date(now));
  return fee.applies === 'due' ? fee.total : 0;
};

/**
 * Plays the actions as the server would (src/server/bookings/change.ts): a change is refused when
 * the rule says it goes through the store, or when it asks for a start already past; nothing is
 * changed once the booking has started. Returns the cost of cancelling at every moment an action
 * was tried (before it), and at the end.
 */
function play(policy: FeePolicy, booked: { start: number; party: number; at: number }, actions: Action[], cancelAfter: number) {
  let { start, party } = booked;
  let now = booked.at;
  const straightAway: number[] = [];
  for (const a of actions) {
    now += a.after * MIN;
    if (now >= start) return null;
    straightAway.push(cost(policy, start, party, now));
    const wanted = a.kind === 'move' ? { start: T0 + a.to * MIN, party } : { start, party: a.to };
    if (wanted.start <= now) continue;
    if (changeNeedsStore(policy, { start: new Date(start), party }, { start: new Date(wanted.start), party: wanted.party }, new Date(now))) continue;
    ({ start, party } = wanted);
  }
  now += cancelAfter * MIN;
  if (now >= start) return null;
  straightAway.push(cost(policy, start, party, now));
  return { straightAway, atEnd: cost(policy, start, party, now) };
}

type ByWhom = Action & { by: 'diner' | 'store' };
const byWhomArb: fc.Arbitrary<ByWhom> = fc.tuple(actionArb, fc.constantFrom('diner' as const, 'store' as const)).map(([a, by]) => ({ ...a, by }));
const basisCost = (policy: FeePolicy, b: Held, now: number) => cost(policy, b.start.getTime(), b.party, now);

/**
 * Plays diners' and stores' changes as the server would (src/server/bookings/change.ts): the
 * diner's refused when the rule sends it to the store, the store's always made; the fee reckoned
 * from its basis. Checks at each store change that cancelling at no later moment costs more than it
 * would have without it; returns what `play` does.
 */
function playBoth(policy: FeePolicy, booked: { start: number; party: number; at: number }, actions: ByWhom[], cancelAfter: number) {
  let held: Held = { start: new Date(booked.start), party: booked.party };
  let basis = held;
  let now = booked.at;
  const straightAway: number[] = [];
  for (const a of actions) {
    now += a.after * MIN;
    if (now >= held.start.getTime()) return null;
    straightAway.push(basisCost(policy, basis, now));
    const wanted = a.kind === 'move' ? { start: new Date(T0 + a.to * MIN), party: held.party } : { start: held.start, party: a.to };
    if (wanted.start.getTime() <= now) continue;
    if (a.by === 'diner' && changeNeedsStore(policy, held, wanted, new Date(now), basis)) continue;
    const after = feeBasisAfter(policy, { held, basis, wanted, now: new Date(now), by: a.by });
    if (a.by === 'store') {
      // What cancelling costs changes only at a deadline: comparing there, just before, and now covers every later moment.
      const deadlines = [basis, after].map((b) => b.start.getTime() - policy.freeHours * 60 * MIN);
      const moments = [now, ...deadlines, ...deadlines.map((d) => d - MIN)].filter((m) => m >= now);
      for (const m of moments) expect([m, basisCost(policy, after, m) <= basisCost(policy, basis, m)]).toEqual([m, true]);
    }
    held = wanted;
    basis = after;
  }
  now += cancelAfter * MIN;
  if (now >= held.start.getTime()) return null;
  straightAway.push(basisCost(policy, basis, now));
  return { straightAway, atEnd: basisCost(policy, basis, now) };
}

describe('the one fee rule', () => {
  it('with the store’s changes mixed in, no sequence ends with less due than cancelling straight away, and no store change raises the fee', () => {
    let endedDue = 0;
    fc.assert(
      fc.property(
        policyArb,
        startArb,
        fc.integer({ min: 1, max: 12 }),
        fc.array(byWhomArb, { maxLength: 8 }),
        afterArb,
        (policy, start, party, actions, cancelAfter) => {
          const played = playBoth(policy, { start: T0 + start * MIN + 15 * MIN, party, at: T0 }, actions, cancelAfter);
          if (!played) return;
          if (played.atEnd > 0) endedDue++;
          for (const before of played.straightAway) expect(played.atEnd).toBeGreaterThanOrEqual(before);
        },
      ),
      { numRuns: 1500 },
    );
    expect(endedDue).toBeGreaterThan(50);
  });

  it('the store moving a due booking a week later keeps it due; moving a free one into the window keeps it free', () => {
    const policy = { freeHours: 2, feeYen: 2000 };
    const start = new Date('2026-11-20T18:00:00+09:00');
    const weekLater = new Date('2026-11-27T18:00:00+09:00');
    const held = { start, party: 2 };
    const inWindow = new Date('2026-11-20T17:00:00+09:00');
    expect(feeBasisAfter(policy, { held, basis: held, wanted: { start: weekLater, party: 1 }, now: inWindow, by: 'store' })).toEqual(held);
    const early = new Date('2026-11-19T12:00:00+09:00');
    const tonight = { start: new Date('2026-11-19T19:00:00+09:00'), party: 4 };
    expect(feeBasisAfter(policy, { held, basis: held, wanted: tonight, now: early, by: 'store' })).toEqual(held);
    // The store moving it later or making it smaller moves the diner's deadline on and the fee down with it.
    expect(feeBasisAfter(policy, { held, basis: held, wanted: { start: weekLater, party: 1 }, now: early, by: 'store' })).toEqual({
      start: weekLater,
      party: 1,
    });
    // The diner's own change is what they hold from then on (a due one could only have grown).
    expect(feeBasisAfter(policy, { held: tonight, basis: held, wanted: { start: weekLater, party: 3 }, now: early, by: 'diner' })).toEqual({
      start: weekLater,
      party: 3,
    });
    expect(
      feeBasisAfter(policy, { held: { start: weekLater, party: 1 }, basis: held, wanted: { start: weekLater, party: 3 }, now: inWindow, by: 'diner' }),
    ).toEqual({ start, party: 3 });
  });

  it('no sequence of moves and party changes ends with less due than cancelling straight away', () => {
    let endedDue = 0;
    fc.assert(
      fc.property(
        policyArb,
        startArb,
        fc.integer({ min: 1, max: 12 }),
        fc.array(actionArb, { maxLength: 8 }),
        afterArb,
        (policy, start, party, actions, cancelAfter) => {
          const played = play(policy, { start: T0 + start * MIN + 15 * MIN, party, at: T0 }, actions, cancelAfter);
          if (!played) return;
          if (played.atEnd > 0) endedDue++;
          for (const before of played.straightAway) expect(played.atEnd).toBeGreaterThanOrEqual(before);
        },
      ),
      { numRuns: 3000 },
    );
    // The generator reaches the window often enough for the property to mean something.
    expect(endedDue).toBeGreaterThan(100);
  });

  it('the dodge of the issue: a booking inside the window moved a week later is refused, so cancelling still costs the fee', () => {
    const policy = { freeHours: 2, feeYen: 2000 };
    const start = new Date('2026-11-20T18:00:00+09:00');
    const now = new Date('2026-11-20T17:00:00+09:00');
    const weekLater = new Date('2026-11-27T18:00:00+09:00');
    expect(changeNeedsStore(policy, { start, party: 2 }, { start: weekLater, party: 2 }, now)).toBe(true);
    expect(changeNeedsStore(policy, { start, party: 2 }, { start, party: 1 }, now)).toBe(true);
    // More guests, or the same booking with another note or seat, are still the diner's to change.
    expect(changeNeedsStore(policy, { start, party: 2 }, { start, party: 3 }, now)).toBe(false);
    expect(changeNeedsStore(policy, { start, party: 2 }, { start, party: 2 }, now)).toBe(false);
    // Before the window opens, anything goes: cancelling then would be free as well.
    expect(changeNeedsStore(policy, { start, party: 2 }, { start: weekLater, party: 1 }, new Date('2026-11-20T15:59:00+09:00'))).toBe(false);
    // A store charging nothing holds nothing back.
    expect(changeNeedsStore({ freeHours: 2, feeYen: 0 }, { start, party: 2 }, { start: weekLater, party: 1 }, now)).toBe(false);
  });

  it('a cancellation by the store costs the diner nothing, even inside the window', () => {
    const reader = { t: translatorFor('ja'), locale: 'ja' };
    const start = new Date('2026-11-20T18:00:00+09:00');
    const booking = {
      start,
      partySize: 2,
      feeBasis: { start, party: 2 },
      status: 'cancelled',
      feePolicy: { freeHours: 2, feeYen: 2000 },
      cancelledAt: new Date('2026-11-20T17:30:00+09:00'),
    } as BookingView;
    expect(bookingFee({ ...booking, cancelledByStore: true }, reader).total).toBe(0);
    expect(bookingFee({ ...booking, cancelledByStore: true }, reader).applies).not.toBe('due');
    expect(bookingFee({ ...booking, cancelledByStore: false }, reader)).toMatchObject({ applies: 'due', total: 4000 });
  });
});
