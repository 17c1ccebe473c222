#!/usr/bin/env node
// Lighthouse figures of the production build (performance.md): builds dist/ (skip with
// --no-build), serves it with the real server in production mode on 127.0.0.1, runs Lighthouse
// (mobile, default simulated throttling) 3 times on `/` and `/docs/intro` in Debian Chromium and
// prints the medians of performance, accessibility, best practices, LCP, TBT and CLS next to the
// budgets, plus when the loader paints and when the page comes into view in throttled Chromium.
// The machine is noisy: these are figures to read, not a pass/fail test.
// Run with `npm run bench` (tsx loads the TypeScript server).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '../server/app.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGES = ['/', '/docs/intro'];
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(build.stdout + build.stderr);
    console.error('bench: the production build failed');
    process.exit(1);
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function runOnce(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    const { categories, audits } = result.lhr;
    return {
      performance: Math.round(categories.performance.score * 100),
      accessibility: Math.round(categories.accessibility.score * 100),
      bestPractices: Math.round(categories['best-practices'].score * 100),
      lcp: audits['largest-contentful-paint'].numericValue,
      tbt: audits['total-blocking-time'].numericValue,
      cls: audits['cumulative-layout-shift'].numericValue,
      benchmarkIndex: result.lhr.environment.benchmarkIndex,
    };
  } finally {
    await chrome.kill();
  }
}

/**
 * What Lighthouse cannot see: its LCP counts the pre-rendered page painted beneath the loading
 * overlay, while a player sees the page once the session has loaded and the overlay is gone.
 * Measured in Chromium with applied throttling like Lighthouse's mobile profile (150 ms RTT,
 * 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower): first paint and the moment the overlay leaves.
 */
async function inView(url) {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      const w = window;
      let seen = false;
      new MutationObserver(() => {
        if (document.querySelector('.loading-overlay')) seen = true;
        else if (seen && w.__inView === undefined) w.__inView = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__inView !== undefined, null, { timeout: 60_000 });
    return await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      inView: window.__inView,
    }));
  } finally {
    await browser.close();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'smw-bench-'));
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  mode: 'production',
  siteDir: join(ROOT, 'dist'),
  log: 'silent',
});
console.log(`bench: production build served at ${server.url}, ${RUNS} Lighthouse runs per page`);

let worst = 0;
try {
  for (const path of PAGES) {
    const url = new URL(path, server.url).href;
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await runOnce(url);
      runs.push(run);
      console.log(
        `  ${path} run ${i + 1}: perf ${run.performance}, LCP ${Math.round(run.lcp)} ms, ` +
          `TBT ${Math.round(run.tbt)} ms, CLS ${run.cls.toFixed(3)} (CPU index ${Math.round(run.benchmarkIndex)})`,
      );
    }
    const views = [];
    for (let i = 0; i < RUNS; i++) views.push(await inView(url));
    const m = (key) => median(runs.map((r) => r[key]));
    const perf = m('performance');
    const lcp = m('lcp');
    const tbt = m('tbt');
    const cls = m('cls');
    const rows = [
      ['performance', perf, '≥ 98', perf >= 98],
      ['accessibility', m('accessibility'), '100', m('accessibility') === 100],
      ['best practices', m('bestPractices'), '100', m('bestPractices') === 100],
      [
        'LCP',
        `${Math.round(lcp)} ms`,
        path === '/' ? '≤ 1200 ms' : '-',
        path !== '/' || lcp <= 1200,
      ],
      ['TBT', `${Math.round(tbt)} ms`, '≤ 50 ms', tbt <= 50],
      ['CLS', cls.toFixed(3), '≤ 0.01', cls <= 0.01],
      [
        'loader shown',
        `${Math.round(median(views.map((v) => v.firstPaint)))} ms`,
        '- (throttled Chromium: first paint)',
        true,
      ],
      [
        'page in view',
        `${Math.round(median(views.map((v) => v.inView)))} ms`,
        '- (throttled Chromium: session loaded, loader gone)',
        true,
      ],
    ];
    console.log(`bench: ${path} medians of ${RUNS} runs`);
    for (const [name, value, budget, ok] of rows) {
      if (!ok) worst += 1;
      console.log(
        `  ${name.padEnd(15)} ${String(value).padStart(9)}   budget ${budget}${ok ? '' : '   (over)'}`,
      );
    }
  }
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  worst === 0 ? 'bench: every median within budget' : `bench: ${worst} median(s) over budget`,
);
