/**
 * The two HTML validators the suite runs on the server's pages: html-validate (its `standard`
 * preset, the rules the HTML standard itself sets, plus `a11y`; see .htmlvalidate.json) and the W3C
 * Nu HTML Checker (vnu.jar, on Java). Each answers one line per error, naming the page.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';

export interface Page {
  /** What the page is, e.g. "signed in /booking-list". */
  name: string;
  html: string;
}

const root = path.resolve(import.meta.dirname, '../..');

export async function htmlValidateErrors(pages: Page[]): Promise<string[]> {
  const validator = new HtmlValidate(new FileSystemConfigLoader());
  const errors: string[] = [];
  for (const page of pages) {
    const report = await validator.validateString(page.html, path.join(root, 'page.html'));
    for (const m of report.results.flatMap((r) => r.messages))
      errors.push(`${page.name} ${m.line}:${m.column} ${m.ruleId}: ${m.message} [${page.html.slice(m.offset, m.offset + 80)}]`);
  }
  return errors;
}

export async function nuCheckerErrors(pages: Page[]): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const jar = String(require('vnu-jar'));
  // The system's Java (11 or later), else the one vnu-jar downloaded when it was installed.
  const java = await (require('vnu-jar/vnu-java-downloader.js') as { resolveJava(): Promise<string> }).resolveJava();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sugu-vnu-'));
  try {
    const files = pages.map((p, i) => {
      const file = path.join(dir, `${i}.html`);
      fs.writeFileSync(file, p.html);
      return file;
    });
    // One Java start for every page: it exits 1 when it found errors and prints them as JSON.
    const run = spawnSync(java, ['-jar', jar, '--format', 'json', '--stdout', '--errors-only', ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (run.error || !run.stdout.trim().startsWith('{')) throw new Error(`vnu did not run: ${run.error?.message ?? run.stderr}`);
    const { messages } = JSON.parse(run.stdout) as { messages: { type: string; url: string; lastLine?: number; message: string; extract?: string }[] };
    return messages
      .filter((m) => m.type === 'error' || m.type === 'non-document-error')
      .map((m) => `${pages[Number(path.basename(new URL(m.url).pathname, '.html'))]?.name ?? m.url} ${m.lastLine ?? ''}: ${m.message} [${m.extract ?? ''}]`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
