import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The terms of use carry the clauses a Japanese service's terms are expected to have. */
describe('利用規約', () => {
  const terms = readFileSync(new URL('../../src/content/pages/term.md', import.meta.url), 'utf8');
  it.each(['免責', '反社会的勢力の排除', '準拠法・管轄'])('has a clause titled %s', (title) => {
    expect(terms).toMatch(new RegExp(`^## 第\\d+条（${title}）$`, 'm'));
  });
  it('numbers its clauses in order', () => {
    const numbers = [...terms.matchAll(/^## 第(\d+)条/gm)].map((m) => Number(m[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });
});
