// Finds a Chromium for the browser tests: CHROMIUM_PATH, Debian's /usr/bin/chromium, or
// Playwright's own download. On a Debian machine where we are root and none is there, installs
// Debian's `chromium`; anywhere else says exactly what to install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

async function playwrightOwn() {
  try {
    const { chromium } = await import('playwright-core');
    const p = chromium.executablePath();
    return p && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

export async function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (fs.existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
  }
  return CANDIDATES.find((p) => fs.existsSync(p)) ?? (await playwrightOwn());
}

export async function ensureChromium() {
  const found = await findChromium();
  if (found) return found;
  const debian = fs.existsSync('/etc/debian_version');
  const root = process.getuid?.() === 0;
  if (debian && root) {
    console.log("No Chromium found; installing Debian's chromium package…");
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status === 0 && fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  throw new Error(
    'No Chromium found for the browser tests. Install one of:\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium\n' +
      '  or set CHROMIUM_PATH=/path/to/chromium',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureChromium().then(
    (p) => console.log(p),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
