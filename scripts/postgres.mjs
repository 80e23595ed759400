// Finds PostgreSQL's server programs for the tests that start a throwaway cluster; on a Debian
// machine where we are root and none is there, installs Debian's `postgresql`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function findPgBin() {
  if (process.env.PG_BIN && fs.existsSync(path.join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (fs.existsSync(base)) {
    const versions = fs
      .readdirSync(base)
      .filter((v) => fs.existsSync(path.join(base, v, 'bin/initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(base, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 ? path.dirname(which.stdout.trim()) : null;
}

export function ensurePostgres() {
  const found = findPgBin();
  if (found) return found;
  if (fs.existsSync('/etc/debian_version') && process.getuid?.() === 0) {
    console.log("No PostgreSQL found; installing Debian's postgresql package…");
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const again = findPgBin();
    if (again) return again;
  }
  throw new Error(
    'PostgreSQL is needed for the database tests. Install it:\n  Debian/Ubuntu: sudo apt-get install -y postgresql\n  or set PG_BIN to the folder holding initdb and pg_ctl',
  );
}
