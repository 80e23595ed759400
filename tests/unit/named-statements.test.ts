/** The bound on named statements (src/server/db/named.ts): a text built per call cannot grow them without limit. */
import { describe, expect, it } from 'vitest';
import { NAMED_MAX, namedTexts } from '../../src/server/db/named';

describe('named statements', () => {
  it('names at most the bound of distinct texts, and keeps naming those it named', () => {
    const allow = namedTexts(3);
    expect(['a', 'b', 'c'].map(allow)).toEqual([true, true, true]);
    expect(allow('d')).toBe(false);
    expect(allow('a')).toBe(true);
    expect(allow('d')).toBe(false);
  });

  it('has a bound written down', () => {
    expect(NAMED_MAX).toBeGreaterThan(0);
    expect(Number.isFinite(NAMED_MAX)).toBe(true);
  });
});
