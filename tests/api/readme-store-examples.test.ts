/**
 * The README's store examples run as written: the `sh` block of its "Store API" section, with only
 * the host and port changed to a test server's, runs in bash against the seeded demo data (the demo
 * staff and their 24-hour store), on both engines, and every curl call in it answers 2xx.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type App } from '../helpers/app';

const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The first `sh` block of the README's "Store API" section. */
function storeExamples(): string {
  const section = readme.slice(readme.indexOf('## Store API'));
  const block = /```sh\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 4)));
  if (!block) throw new Error('no sh block in the Store API section');
  return block[1]!;
}

/** Runs a script in bash; each curl's status and method go to stderr as `HTTP <status> <method> <url>`. */
function runBash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Every call reports its status on stderr (curl's %{stderr}), so the examples' own output and
  // their `$(…)` captures stay exactly as they are.
  const wrapper = `set -u\ncurl() { command curl --write-out '%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n' "$@"; }\n`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', wrapper + script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`the README's store examples [${engine}]`, () => {
    let app: App;
    beforeAll(async () => {
      app = await startApp(engine);
    });
    afterAll(() => app?.stop());

    it('run as written, and every call answers 2xx', async () => {
      const script = storeExamples();
      expect(script).not.toMatch(/[A-Z]+_ID\b/);
      const calls = script.match(/\bcurl /g)!.length;
      const { code, stderr } = await runBash(script.replaceAll('http://localhost:4321', app.url));
      const answers = stderr.split('\n').filter((l) => l.startsWith('HTTP '));
      expect(code, stderr).toBe(0);
      expect(answers.length, stderr).toBe(calls);
      expect(answers.filter((l) => !/^HTTP 2\d\d /.test(l))).toEqual([]);
      // The walk-in, the phone booking and the block were made and given back, by id.
      expect(answers.some((l) => /^HTTP 200 POST \S+\/api\/store\/walk-ins\/\d+\/free$/.test(l))).toBe(true);
      expect(answers.some((l) => /^HTTP 200 PATCH \S+\/api\/store\/bookings\/\d+$/.test(l))).toBe(true);
      expect(answers.some((l) => /^HTTP 204 DELETE \S+\/api\/store\/blocks\/\d+$/.test(l))).toBe(true);
      expect(answers.filter((l) => /^HTTP 200 DELETE \S+\/api\/store\/closures\/\d+$/.test(l))).toHaveLength(2);
    });
  });
}
