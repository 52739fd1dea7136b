/**
 * How fast the public pages paint in Chromium, cold and warm, against a baseline measured in the
 * same run: a static HTML page with the home page's headline and no script, served over loopback.
 * `npm run bench -- web [--rounds 7]`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../scripts/ensure-web-build.ts';
import { startAppProcess } from '../tests/support/app-process.ts';
import { findChromium, INSTALL_HINT, launchBrowser } from '../tests/support/browser.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;

const BASELINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baseline</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="font-family:system-ui;margin:4rem">
<h1 style="font-size:3.5rem">Hear every mention, within seconds.</h1>
<p>Earshot watches the discussion sites your customers read for the words you care about.</p></body></html>`;

type Sample = { fcp: number; lcp: number; load: number; bytes: number };

/**
 * Runs in the page (kept as text: this file is type-checked without the DOM's types). Waits for the
 * first contentful paint (up to 10 s: a page that paints after its load event still counts), then
 * 300 ms more for the largest contentful paint to settle.
 */
const PAGE_METRICS = `new Promise((resolve) => {
  let lcp = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const finish = () => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    const navigation = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const bytes = (navigation?.transferSize ?? 0) + resources.reduce((sum, r) => sum + r.transferSize, 0);
    resolve({ fcp, lcp, load: navigation?.loadEventEnd ?? 0, bytes });
  };
  const started = performance.now();
  const waitForPaint = () => {
    if (performance.getEntriesByName('first-contentful-paint').length > 0 || performance.now() - started > 10000)
      setTimeout(finish, 300);
    else requestAnimationFrame(waitForPaint);
  };
  waitForPaint();
})`;

async function measure(browser: Browser, url: string, warm: boolean): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  if (warm) await page.goto(url, { waitUntil: 'load' });
  await page.goto(url, { waitUntil: 'load' });
  const sample = (await page.evaluate(PAGE_METRICS)) as Sample;
  await context.close();
  return sample;
}

/** The median of the finite values (a page that never painted gives NaN and is left out). */
function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main() {
  const chromium = findChromium();
  if (!chromium) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
  ensureWebBuild();
  const app = await startAppProcess({ env: { LOG_LEVEL: 'warn' } });
  const baseline = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(BASELINE_HTML);
  });
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/`;
  const browser = await launchBrowser(chromium);

  const targets = [
    { name: 'home (cold)', url: `${app.url}/`, warm: false },
    { name: 'home (warm cache)', url: `${app.url}/`, warm: true },
    { name: 'login (cold)', url: `${app.url}/account/login`, warm: false },
    { name: 'static baseline', url: baselineUrl, warm: false },
  ];
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate the order each round so no target always runs first (or last).
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order)
      samples.get(target.name)?.push(await measure(browser, target.url, target.warm));
  }
  await browser.close();
  await app.stop();
  baseline.close();

  const base = samples.get('static baseline') ?? [];
  const baseFcp = median(base.map((s) => s.fcp));
  console.log(`Chromium, 1280×800, loopback, ${ROUNDS} rounds, medians (ms; bytes as transferred)`);
  console.log('target              | FCP ms | LCP ms | load ms | bytes    | FCP ÷ baseline');
  for (const [name, list] of samples) {
    const fcp = median(list.map((s) => s.fcp));
    const row = [
      name.padEnd(19),
      fcp.toFixed(0).padStart(6),
      median(list.map((s) => s.lcp))
        .toFixed(0)
        .padStart(6),
      median(list.map((s) => s.load))
        .toFixed(0)
        .padStart(7),
      String(median(list.map((s) => s.bytes))).padStart(8),
      `×${(fcp / baseFcp).toFixed(2)}`,
    ];
    console.log(row.join(' | '));
    console.log(
      `  raw FCP: ${list.map((s) => (Number.isFinite(s.fcp) ? s.fcp.toFixed(0) : 'no paint')).join(', ')}`,
    );
  }
}

await main();
