/**
 * One zod dialect: `zod/mini`. Islands import the contract's schemas from src/lib, and mini is the
 * dialect whose unused parts a bundler drops, so a form's island ships a few kilobytes of zod. One
 * classic `zod` import in a shared module would put the whole library on the booking page, and two
 * dialects side by side make every schema read two ways. Types come from the same import
 * (`z.core.$ZodType`, `z.core.$ZodIssue`), never from zod's inner paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx|astro|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

const scanned = ['src', 'tests', 'scripts', 'bench'].flatMap(files);

/** Every zod module named by an import, export or require, as `file:line  specifier`. */
function zodImports(): { where: string; spec: string }[] {
  return scanned.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        [...line.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*|\brequire\(\s*)['"](zod(?:\/[^'"]*)?)['"]/g)].map((m) => ({
          where: `${file}:${i + 1}`,
          spec: m[1]!,
        })),
      ),
  );
}

describe('zod dialect', () => {
  const found = zodImports();

  it('finds the imports (the scan itself works)', () => {
    expect(found.filter((f) => f.spec === 'zod/mini').length).toBeGreaterThan(30);
    expect(found.some((f) => f.where.startsWith(path.join('src', 'lib', 'contract')))).toBe(true);
  });

  it('imports zod only as zod/mini', () => {
    expect(found.filter((f) => f.spec !== 'zod/mini').map((f) => `${f.where}  ${f.spec}`)).toEqual([]);
  });
});
