import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '/work/main/server/app.ts';
const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: mkdtempSync(join(tmpdir(), 'lh-')), mode: 'production', localChain: true, mailToLog: true, siteDir: '/work/main/dist', log: 'silent' });
for (let i = 0; i < Number(process.env.N ?? 1); i++) {
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
const r = await lighthouse(server.url + '/', { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
const a = r.lhr.audits;
console.log('perf', Math.round(r.lhr.categories.performance.score * 100), 'FCP', Math.round(a['first-contentful-paint'].numericValue), 'LCP', Math.round(a['largest-contentful-paint'].numericValue), 'TBT', Math.round(a['total-blocking-time'].numericValue), 'CLS', a['cumulative-layout-shift'].numericValue, a['cumulative-layout-shift'].errorMessage, 'SI', Math.round(a['speed-index'].numericValue), 'cpu', r.lhr.environment.benchmarkIndex);
if (i === 0) {
  const lcpEl = a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
  console.log('LCP element', lcpEl);
  const lb = a['lcp-breakdown-insight'] ?? a['largest-contentful-paint-element'];
  console.log(JSON.stringify(lb?.details?.items?.[1] ?? lb?.details, null, 0)?.slice(0, 800));
  for (const t of (a['long-tasks']?.details?.items ?? []).slice(0, 8)) console.log('long task', t.url?.slice(-50), Math.round(t.startTime), Math.round(t.duration));
  const bt = a['bootup-time']?.details?.items ?? []; for (const t of bt.slice(0,6)) console.log('bootup', t.url?.slice(-50), Math.round(t.total), Math.round(t.scripting));
}
await chrome.kill();
}
await server.close();
