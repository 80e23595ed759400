/**
 * Every message key the code names exists in Japanese, the complete dictionary (and so, by the
 * translation-table test, in every locale). Keys are found as quoted literals under a known
 * namespace; a key built at run time (`booking.seat.${kind}`) must at least open onto real keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../src/i18n';

const ja = dictionaries.ja!;
const namespaces = [...new Set(Object.keys(ja).map((k) => k.split('.')[0]))];
const literal = new RegExp(`(['"\`])((?:${namespaces.join('|')})\\.[A-Za-z0-9_.]*)(\\$\\{|\\1)`, 'g');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p.includes(`${path.sep}locales`) ? [] : sourceFiles(p);
    return /\.(ts|tsx|astro|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** Keys named in the source, `…*` for those built at run time from a prefix. */
function keysInCode(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles('src')) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(literal)) {
      const key = m[3] === '${' || m[2]!.endsWith('.') ? `${m[2]}*` : m[2]!;
      found.set(key, [...(found.get(key) ?? []), file]);
    }
  }
  return found;
}

describe('message keys in the code', () => {
  const used = keysInCode();

  it('finds the keys the pages use (the scan itself works)', () => {
    expect(used.size).toBeGreaterThan(300);
    expect(used.has('nav.bookings')).toBe(true);
    expect(used.has('booking.seat.*')).toBe(true);
  });

  it('cover every key of ja: a key no code names is dead and goes', () => {
    const prefixes = [...used.keys()].filter((k) => k.endsWith('*')).map((k) => k.slice(0, -1));
    const dead = Object.keys(ja).filter((k) => !used.has(k) && !prefixes.some((p) => k.startsWith(p)));
    expect(dead).toEqual([]);
  });

  it('exist in ja, each of them', () => {
    const missing = [...used].filter(([key]) => (key.endsWith('*') ? !Object.keys(ja).some((k) => k.startsWith(key.slice(0, -1))) : !(key in ja)));
    expect(missing).toEqual([]);
  });
});
