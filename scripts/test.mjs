// `npm test`: every suite (unit, API on PGlite and PostgreSQL, browser) and one total line.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensurePostgres } from './postgres.mjs';
import { buildIfNeeded, root } from './build-if-needed.mjs';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const only = process.argv.slice(2); // e.g. `npm test -- e2e` runs one runner; SUGU_TEST_SIDE_BY_SIDE=1 runs both at once

let passed = 0;
let failed = 0;
let skipped = 0;

/**
 * Runs one runner and resolves with its exit status. With `prefix` (runners side by side) its
 * output is passed on line by line, each line marked with the runner it came from.
 */
function run(name, command, args, env = {}, prefix = '') {
  console.log(`\n▶ ${name}`);
  const child = spawn(command, args, { cwd: root, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
  if (prefix) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      from.setEncoding('utf8');
      from.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) to.write(`${prefix} ${line}\n`);
      });
      from.on('end', () => rest && to.write(`${prefix} ${rest}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
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

async function vitest(prefix) {
  const out = path.join(results, 'vitest.json');
  fs.rmSync(out, { force: true });
  const status = await run('Vitest (unit and API)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {}, prefix);
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

async function playwright(prefix) {
  const out = path.join(results, 'playwright.json');
  fs.rmSync(out, { force: true });
  const status = await run('Playwright (browser, Chromium)', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out }, prefix);
  const report = readJson(out);
  if (report?.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    if (status !== 0 && report.stats.unexpected === 0) failed += 1; // the runner itself failed (e.g. web server)
  } else if (status !== 0) failed += 1;
}

/** Biome's formatting and lint check, the type check, the API document written from the contract and Redocly's lint of it (`npm run check`). */
async function check() {
  const status = await run('Formatting, lint, types and the API document (npm run check)', process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'check']);
  if (status === 0) passed += 1;
  else failed += 1;
}

const runners = [];
if (!only.length || only.includes('check')) await check();
if (!only.length || only.includes('vitest')) runners.push(vitest);
if (!only.length || only.includes('e2e')) runners.push(playwright);
if (runners.length > 1 && process.env.SUGU_TEST_SIDE_BY_SIDE === '1') {
  // Both runners at once, for machines with cores to spare. Not the default: on two cores both
  // runners keep the CPU busy by themselves (each runs two workers), so side by side each test
  // only runs slower, closer to its timeouts.
  await Promise.all([vitest('[vitest]'), playwright('[e2e]')]);
} else {
  for (const runner of runners) await runner('');
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
