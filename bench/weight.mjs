// Page weight per route: HTML, CSS and JS as a phone loads them, raw and gzip.
import { chromium } from 'playwright-core';
import zlib from 'node:zlib';
import { startServer } from './lib.mjs';

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

export async function measureWeight({ routes, budget }) {
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
  const results = [];
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 915 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
    for (const { name, path } of routes) {
      const page = await context.newPage();
      const seen = new Map();
      page.on('response', async (res) => {
        const type = res.request().resourceType();
        if (!['document', 'script', 'stylesheet'].includes(type) || !res.url().startsWith(server.url)) return;
        try {
          const body = await res.body();
          seen.set(res.url(), { type, raw: body.length, gzip: gz(body) });
        } catch {}
      });
      const response = await page.goto(server.url + path, { waitUntil: 'networkidle' });
      const sum = (type, key) => [...seen.values()].filter((r) => r.type === type).reduce((a, r) => a + r[key], 0);
      const row = {
        name,
        path,
        status: response?.status() ?? 0,
        htmlRaw: sum('document', 'raw'),
        htmlGzip: sum('document', 'gzip'),
        cssRaw: sum('stylesheet', 'raw'),
        cssGzip: sum('stylesheet', 'gzip'),
        jsRaw: sum('script', 'raw'),
        jsGzip: sum('script', 'gzip'),
        scripts: [...seen].filter(([, r]) => r.type === 'script').map(([u]) => new URL(u).pathname),
      };
      row.withinBudget = row.status === 200 && row.htmlGzip <= budget.htmlGzip && row.jsGzip <= budget.jsGzip;
      results.push(row);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return results;
}
