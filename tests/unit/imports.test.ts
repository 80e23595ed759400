/**
 * The module graph of src/ has no cycles (type imports included): every module can be read, and
 * loaded, after the ones it names. A cycle is reported as the chain of files that closes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');
const EXTENSIONS = ['', '.ts', '.tsx', '.astro', '.mjs', '/index.ts'];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx|astro|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** The files a module imports by relative path or the `#src/` alias (static and dynamic, values and types). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+|#src\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.flatMap((spec) => {
    const base = spec.startsWith('#src/') ? path.join(SRC, spec.slice('#src/'.length)) : path.resolve(path.dirname(file), spec);
    const found = EXTENSIONS.map((ext) => base + ext).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
    return found && !found.endsWith('.json') ? [found] : [];
  });
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map((p) => path.relative(SRC, p)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return found;
}

describe('module graph', () => {
  const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));

  it('is read whole (the scan itself works)', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get(path.join(SRC, 'server/db/startup.ts'))).toContain(path.join(SRC, 'server/db/client.ts'));
  });

  it('has no cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  const under = (dir: string) => (f: string) => f.startsWith(path.join(SRC, dir) + path.sep);
  const outside = (from: (f: string) => boolean, allowed: ((f: string) => boolean)[]) =>
    [...graph]
      .filter(([f]) => from(f))
      .flatMap(([f, deps]) => deps.filter((d) => !allowed.some((ok) => ok(d))).map((d) => `${path.relative(SRC, f)} → ${path.relative(SRC, d)}`));

  it('keeps the demo template apart: it reaches only its own folder, the shared lib and i18n, and the base layout', () => {
    expect([...graph.keys()].filter(under('template')).length).toBeGreaterThan(20);
    expect(outside(under('template'), [under('template'), under('lib'), under('i18n'), (d) => d === path.join(SRC, 'layouts/Base.astro')])).toEqual([]);
  });

  it('lets nothing in src/ reach into the template: its pages are injected by astro.config.mjs alone', () => {
    expect([...graph.keys()].filter(under('template/pages')).length).toBeGreaterThan(15);
    expect(outside((f) => !under('template')(f), [(d) => !under('template')(d)])).toEqual([]);
  });

  it('keeps client state (src/state) out of the server, and the server out of the islands', () => {
    expect([...graph.keys()].filter(under('state')).length).toBeGreaterThan(5);
    expect(outside(under('server'), [(d) => !under('state')(d) && !under('islands')(d)])).toEqual([]);
    expect(outside(under('islands'), [(d) => !under('server')(d)])).toEqual([]);
  });

  it('gives each idea one folder name: restaurants are stores, client state is state/', () => {
    expect(fs.existsSync(path.join(SRC, 'stores'))).toBe(false);
  });
});
