#!/usr/bin/env node
// Lighthouse figures of the production build (performance.md): builds dist/ (skip with
// --no-build), serves it with the real server in production mode on 127.0.0.1, runs Lighthouse
// (mobile, default simulated throttling) 3 times on `/` and `/docs/intro` in Debian Chromium and
// prints the medians of performance, accessibility, best practices, LCP, TBT and CLS next to the
// budgets. The machine is noisy: these are figures to read, not a pass/fail test.
// Run with `npm run bench` (tsx loads the TypeScript server).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
