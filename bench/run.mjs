// `npm run bench`: runs every benchmark in turn (each prints its figures and writes
// bench/.cache/<name>.json); exits non-zero when one misses its budget. `npm run bench -- live`
// runs one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const benches = ['live'];
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let failed = 0;
for (const name of benches.filter((b) => !only.length || only.includes(b))) {
  console.log(`\n▶ bench ${name}`);
  const r = spawnSync(process.execPath, [path.join(here, `${name}.mjs`), ...process.argv.slice(2).filter((a) => a.startsWith('-'))], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
