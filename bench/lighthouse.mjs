// Lighthouse (mobile) on the system Chromium.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { startServer } from './lib.mjs';

const score = (c) => (typeof c?.score === 'number' ? Math.round(c.score * 100) : null);
const num = (audit, digits) => (Number.isFinite(audit?.numericValue) ? Number(audit.numericValue.toFixed(digits)) : null);

export async function measureLighthouse({ paths }) {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const options = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    formFactor: 'mobile',
    screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    locale: 'ja',
  };
  const out = [];
  try {
    for (const { name, path, headers } of typeof paths === 'function' ? await paths(server.url) : paths) {
      // A page behind a sign-in is loaded with the session's cookie.
      const flags = headers ? { ...options, extraHeaders: headers } : options;
      // A trace that Lighthouse failed to record (NO_NAVSTART and the like) is tried once more.
      let result = await lighthouse(server.url + path, flags);
      if (result.lhr.runtimeError) result = await lighthouse(server.url + path, flags);
      const { categories, audits } = result.lhr;
      out.push({
        name,
        path,
        performance: score(categories.performance),
        accessibility: score(categories.accessibility),
        bestPractices: score(categories['best-practices']),
        runtimeError: result.lhr.runtimeError?.message ?? null,
        // An audit Lighthouse could not run has no value: reported as null rather than guessed.
        fcpMs: num(audits['first-contentful-paint'], 0),
        lcpMs: num(audits['largest-contentful-paint'], 0),
        cls: num(audits['cumulative-layout-shift'], 3),
        tbtMs: num(audits['total-blocking-time'], 0),
        // What the page transferred, as Lighthouse counts it (compressed sizes), and what the
        // render-blocking stylesheet costs the first paint by its estimate.
        transferKiB: Number.isFinite(audits['total-byte-weight']?.numericValue) ? Number((audits['total-byte-weight'].numericValue / 1024).toFixed(1)) : null,
        renderBlockingMs: audits['render-blocking-insight']?.metricSavings?.FCP ?? null,
        failedAudits: Object.values(audits)
          .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
          .map((a) => a.id),
        // Insights that found something to gain (caching, compression, LCP request discovery, layout shifts…).
        insights: Object.values(audits)
          .filter((a) => a.id.endsWith('-insight') && a.score !== null && a.score < 1)
          .map((a) => a.id),
      });
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  return out;
}
