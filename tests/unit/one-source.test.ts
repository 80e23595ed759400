/**
 * One source for every rule: a limit, a validation pattern or a contract name is written once, in
 * src/lib (the contract's limits, enums and schemas; the patterns of src/lib/validation.ts), and
 * imported everywhere else. These checks fail on a second definition.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx|astro|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** Product code: the demo template, the environment's own ranges and the seed's word lists aside. */
const product = files('src').filter((f) => !/^src\/(template|i18n\/locales)\/|^src\/server\/config\.ts$|^src\/server\/db\/seed/.test(f));
const CONTRACT = 'src/lib/contract/';

/** Each match of `pattern` in the files, as `file:line  text`. */
function findings(pattern: RegExp, where: string[]): string[] {
  return where.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}  ${line.trim().slice(0, 120)}`] : [])),
  );
}

describe('one source', () => {
  it('reads the product code (the scan itself works)', () => {
    expect(product.length).toBeGreaterThan(100);
    expect(findings(/PARTY_MAX/, product).length).toBeGreaterThan(3);
  });

  it('has no length or count limit written as a number outside the contract', () => {
    // `.min(1)` means "required" and `.min(0)` "not negative": those are not limits. zod/mini writes
    // them as checks (`z.maxLength(50)`, `z.maximum(20)`).
    const limit =
      /\.length\s*[<>]=?\s*\d{2,}|(?<!Math)\.(max|min)\(\s*-?(?:[2-9]|\d{2,})|\b(maxLength|minLength|maxlength|minlength)=\{?\s*["']?\d|\bz\.(maxLength|minLength|length|maximum|minimum|lte|gte|lt|gt|maxSize|minSize)\(\s*-?(?:[2-9]|\d{2,})/;
    expect(
      findings(
        limit,
        product.filter((f) => !f.startsWith(CONTRACT)),
      ),
    ).toEqual([]);
  });

  it('has the kana, phone and e-mail patterns in src/lib/validation.ts alone', () => {
    const pattern = /\\p\{Script=(Katakana|Hiragana)\}|\\u30A1|\\uFF66|\[\^\\s@\]\+@|\\\+81|0\[5789\]0/;
    expect(
      findings(
        pattern,
        product.filter((f) => f !== 'src/lib/validation.ts'),
      ),
    ).toEqual([]);
  });

  it('defines no name of the contract a second time, nor spells out its table kinds', () => {
    const names = files(CONTRACT).flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/export (?:const|type|function) (\w+)/g)].map((m) => m[1]!));
    expect(names).toContain('NOTE_MAX');
    // A declaration (`const X =`, `type X<`, `function X(`), not a name in a multi-line import (`  type X,`).
    const again = new RegExp(`^(?!\\s*import\\b).*\\b(?:(?:const|let|type) (?:${names.join('|')})\\s*[=:<]|function (?:${names.join('|')})\\b)`);
    const kinds = /'counter'\s*\|\s*'table'|'table'\s*\|\s*'private_room'/;
    const elsewhere = files('src').filter((f) => !f.startsWith(CONTRACT));
    expect([...findings(again, elsewhere), ...findings(kinds, elsewhere)]).toEqual([]);
  });

  it("computes a store's largest party in src/lib/party.ts alone (not again in TypeScript or SQL)", () => {
    const again = /\.map\(\(\w+\) => \w+\.maxParty\)|max\(\w*\.?max_party\)/;
    expect(findings(again, ['src/lib/party.ts'])).toHaveLength(1);
    expect(
      findings(
        again,
        product.filter((f) => f !== 'src/lib/party.ts'),
      ),
    ).toEqual([]);
  });

  it("checks kana and phone numbers with the contract's field schemas alone (one rule, one message)", () => {
    const check = /refine\(.*\b(isKana|normalisePhone)\b/;
    expect(findings(check, ['src/lib/contract/fields.ts']).length).toBeGreaterThanOrEqual(4);
    expect(
      findings(
        check,
        product.filter((f) => f !== 'src/lib/contract/fields.ts'),
      ),
    ).toEqual([]);
  });

  it("builds store, booking and sign-in links with the contract's paths, not by hand", () => {
    // A route the island fills in itself (`{id}`) is a pattern, not a link.
    const byHand = /`\/store\/\$\{(?![^`]*\{id\})|\/auth\/signin\?next/;
    expect(findings(byHand, ['src/lib/contract/paths.ts']).length).toBeGreaterThanOrEqual(3);
    expect(
      findings(
        byHand,
        product.filter((f) => !f.startsWith(CONTRACT)),
      ),
    ).toEqual([]);
  });

  it('writes every log line through src/server/log.ts (one format: level and msg first)', () => {
    const byHand = /console\.(log|warn|error|info)\)?\(JSON\.stringify|JSON\.stringify\(\{ level\b/;
    const logger = /from 'pino'/;
    expect(findings(logger, ['src/server/log.ts'])).toHaveLength(1);
    expect(
      findings(
        logger,
        product.filter((f) => f !== 'src/server/log.ts'),
      ),
    ).toEqual([]);
    expect(findings(byHand, product)).toEqual([]);
  });

  it("names a store's facts once: the columns a diner's read takes, and the fields the API answers with", () => {
    const shapes = {
      columns: /nameKana: stores\.nameKana,\s*genre: stores\.genre,\s*areaId: stores\.areaId/,
      fields: /name_kana: \w+\.nameKana,\s*genre: \w+\.genre,\s*genre_label:/,
    };
    const holding = (shape: RegExp) => product.filter((f) => shape.test(fs.readFileSync(f, 'utf8')));
    expect(holding(shapes.columns)).toEqual(['src/server/stores/columns.ts']);
    expect(holding(shapes.fields)).toEqual(['src/server/stores/json.ts']);
    expect(fs.readFileSync('src/server/stores/json.ts', 'utf8').match(new RegExp(shapes.fields, 'g'))).toHaveLength(1);
  });

  it('reads the environment in src/server/config.ts alone (checked once, at start)', () => {
    const env = /process\.env\b/;
    expect(findings(env, ['src/server/config.ts']).length).toBeGreaterThan(0);
    const elsewhere = product.filter((f) => f !== 'src/server/config.ts');
    expect(findings(env, elsewhere)).toEqual([]);
  });
});
