import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { NO_BOOKING_LIMITS } from './tests/helpers/limits';

// Chosen once in the runner process; workers load this file again and inherit the environment.
process.env.E2E_PORT ??= String(4400 + (process.pid % 500));
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `sugu-e2e-${process.pid}`);
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/playwright',
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      // Chromium's background services try to reach the network, which this machine does not allow.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [{ name: 'phone', use: { ...devices['Pixel 7'], browserName: 'chromium' } }],
  webServer: {
    command: `node tests/helpers/serve.mjs`,
    url: `http://127.0.0.1:${port}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    // Every diner of these tests books from one address (tests/helpers/limits.ts). The store host is
    // store.localhost on the same port: Chromium resolves *.localhost to this machine by itself.
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      STORE_HOST: `http://store.localhost:${port}`,
      DATA_DIR: dataDir,
      SUGU_FRESH_DATA: '1',
      SUGU_LOG_REQUESTS: '0',
      NODE_ENV: 'production',
      ...NO_BOOKING_LIMITS,
    },
  },
});
