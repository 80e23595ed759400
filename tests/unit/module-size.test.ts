/**
 * Server modules stay small enough to read at once: over MAX_LINES lines or MAX_EXPORTS exports, a
 * module says at its top why it is one module ("One module: …"), so a newcomer knows whether to
 * split it when it grows or to leave it whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 250;
const MAX_EXPORTS = 10;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const modules = files(path.join('src', 'server')).map((file) => {
  const text = fs.readFileSync(file, 'utf8');
  return {
    file,
    lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
    exports: text.match(/^export (?:async )?(?:function|const|let|class|interface|type|enum) /gm)?.length ?? 0,
    // The module's own comment: everything before its first import or statement.
    head: text.slice(0, text.search(/^(?:import|export|const|function|let|type|interface|class)\b/m)),
  };
});

describe('server module size', () => {
  it('reads the server modules (the scan itself works)', () => {
    expect(modules.length).toBeGreaterThan(100);
    expect(modules.find((m) => m.file.endsWith(path.join('db', 'schema.ts')))?.exports).toBeGreaterThan(MAX_EXPORTS);
  });

  it(`says why a module over ${MAX_LINES} lines or ${MAX_EXPORTS} exports is one module`, () => {
    const unexplained = modules.filter((m) => (m.lines > MAX_LINES || m.exports > MAX_EXPORTS) && !/\bOne module: \S/.test(m.head));
    expect(unexplained.map((m) => `${m.file}: ${m.lines} lines, ${m.exports} exports`)).toEqual([]);
  });
});
