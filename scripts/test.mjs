// `npm test`: every suite (unit, API on PGlite and PostgreSQL, browser) and one total line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensurePostgres } from './postgres.mjs';
import { buildIfNeeded, root } from './build-if-needed.mjs';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const only = process.argv.slice(2); // e.g. `npm test -- e2e` runs one runner

let passed = 0;
let failed = 0;
let skipped = 0;

function run(name, command, args, env = {}) {
  console.log(`\n▶ ${name}`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

process.env.CHROMIUM_PATH = await ensureChromium();
process.env.PG_BIN = ensurePostgres();
buildIfNeeded();

if (!only.length || only.includes('vitest')) {
  const out = path.join(results, 'vitest.json');
  fs.rmSync(out, { force: true });
  const status = run('Vitest (unit and API)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  const report = readJson(out);
  let runnerFailed = 0;
  if (report) {
    passed += report.numPassedTests;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that fails to load has no tests in it, but it is a failure all the same.
    runnerFailed = report.numFailedTests + report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  }
  if (status !== 0 && runnerFailed === 0) runnerFailed = 1;
  failed += runnerFailed;
}

if (!only.length || only.includes('e2e')) {
  const out = path.join(results, 'playwright.json');
  fs.rmSync(out, { force: true });
  const status = run('Playwright (browser, Chromium)', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  const report = readJson(out);
  if (report?.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    if (status !== 0 && report.stats.unexpected === 0) failed += 1; // the runner itself failed (e.g. web server)
  } else if (status !== 0) failed += 1;
}

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
