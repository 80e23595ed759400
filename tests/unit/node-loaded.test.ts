/**
 * `npm start` (scripts/start.mjs) has Node load part of src/ itself, with no bundler between: the
 * configuration, the HTTP edge, shutdown, and all they import. Node strips the types but adds no
 * extension, so an import there that leaves one out works under `npm run dev` (Vite) and fails
 * only at `npm start`. Biome's useImportExtensions enforces the extension on relative imports of
 * exactly these files (biome.jsonc); this test keeps that list equal to what start.mjs reaches,
 * and checks the `#src/` alias imports, which the rule does not look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('.');
const rel = (p: string) => path.relative(ROOT, p).split(path.sep).join('/');

/** Every module specifier in a file: static, dynamic, type-only and re-exports. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"\n]+)['"]/g)].map((m) => m[1]!);
}

/** The file a specifier names as written: relative or `#src/`, no extension added (as Node does). */
function target(file: string, spec: string): string | null {
  if (spec.startsWith('#src/')) return path.join(ROOT, 'src', spec.slice('#src/'.length));
  if (spec.startsWith('./') || spec.startsWith('../')) return path.resolve(path.dirname(file), spec);
  return null;
}

const isFile = (p: string) => fs.existsSync(p) && fs.statSync(p).isFile();

/** The src/ files start.mjs imports by path, and everything they import in turn. */
function nodeLoaded(): { files: string[]; missing: string[] } {
  const start = fs.readFileSync(path.join(ROOT, 'scripts/start.mjs'), 'utf8');
  const queue = [...start.matchAll(/path\.join\(root, '(src\/[^']+\.ts)'\)/g)].map((m) => path.join(ROOT, m[1]!));
  const seen = new Set<string>();
  const missing: string[] = [];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
      const to = target(file, spec);
      if (!to) continue;
      if (!isFile(to)) missing.push(`${rel(file)}: '${spec}'`);
      else if (!to.endsWith('.json')) queue.push(to);
    }
  }
  return { files: [...seen].map(rel).sort(), missing };
}

/** The files biome.jsonc has useImportExtensions checked on. */
function biomeScope(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'biome.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const config = JSON.parse(text) as { overrides: { includes?: string[]; linter?: { rules?: { correctness?: Record<string, unknown> } } }[] };
  const scoped = config.overrides.filter((o) => o.linter?.rules?.correctness?.useImportExtensions);
  return scoped.flatMap((o) => o.includes ?? []).sort();
}

describe('files Node loads without a bundler', () => {
  const { files, missing } = nodeLoaded();

  it('are found from scripts/start.mjs (the scan itself works)', () => {
    expect(files).toContain('src/server/http/edge.ts');
    expect(files).toContain('src/server/config.ts');
    expect(files.length).toBeGreaterThan(10);
  });

  it('name every imported file with its extension', () => {
    expect(missing).toEqual([]);
  });

  it('are exactly the files Biome checks for import extensions', () => {
    expect(biomeScope()).toEqual(files);
  });
});

/** The `#src/` imports of a file that name no file (an extension left out, a file moved). */
function brokenAliases(file: string, text: string): string[] {
  const named = (s: string) => path.join(ROOT, 'src', s.slice('#src/'.length).split('?')[0]!);
  return specifiers(text)
    .filter((s) => s.startsWith('#src/') && !isFile(named(s)))
    .map((s) => `${rel(file)}: '${s}'`);
}

describe('the #src/ alias', () => {
  it('is checked: an import without its extension is caught', () => {
    // Assembled, so that the scan of this very file below does not read it as an import.
    const [bare, named] = ['#src/server/clock', '#src/server/config.ts'];
    const text = `import { now } from '${bare}';\nimport { parseConfig } from '${named}';`;
    expect(brokenAliases(path.join(ROOT, 'src/x.ts'), text)).toEqual([`src/x.ts: '${bare}'`]);
  });

  it('names an existing file, extension included, wherever it is used', () => {
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? walk(p) : /\.(ts|tsx|mjs|astro)$/.test(e.name) ? [p] : [];
      });
    const files = ['src', 'tests', 'bench', 'scripts'].flatMap((d) => walk(path.join(ROOT, d)));
    expect(files.flatMap((f) => brokenAliases(f, fs.readFileSync(f, 'utf8')))).toEqual([]);
  });
});
