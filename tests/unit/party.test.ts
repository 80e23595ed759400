import { describe, expect, it } from 'vitest';
import { PARTY_MAX } from '../../src/lib/contract/limits';
import { largestParty } from '../../src/lib/party';

describe('largestParty', () => {
  const tables = [
    { maxParty: 4, online: true },
    { maxParty: 8, online: false },
    { maxParty: 2, online: true },
  ];
  it('is the largest online table for diners, any table for staff', () => {
    expect(largestParty(tables)).toBe(4);
    expect(largestParty(tables, true)).toBe(8);
  });
  it('is 0 without a table diners may book', () => {
    expect(largestParty([])).toBe(0);
    expect(largestParty([{ maxParty: 6, online: false }])).toBe(0);
  });
  it('never exceeds PARTY_MAX, for diners or staff', () => {
    expect(largestParty([{ maxParty: PARTY_MAX + 10, online: true }])).toBe(PARTY_MAX);
    expect(largestParty([{ maxParty: PARTY_MAX + 10, online: false }], true)).toBe(PARTY_MAX);
  });
});
