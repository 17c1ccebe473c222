#!/usr/bin/env node
// The wait a player feels, and Lighthouse's figures, of the production build (performance.md):
// builds dist/ (skip with --no-build), serves it with the real server on 127.0.0.1 and measures
// in Debian Chromium with the mobile profile applied (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up,
// CPU 4x slower), medians of BENCH_RUNS (default 5) runs:
// - `/`, `/docs/intro` and the signed-in home (a stored jwt; a returning player's page, its files
//   cached by an earlier visit, and again with nothing cached as right after a new release):
//   loader shown (first paint), page
//   in view (the loading overlay gone and the page's content drawn, not a busy placeholder, at
//   the end of the frame that draws it),
//   hydrated (the app answers taps), and on `/` the first tap answered (Get Access tapped the
//   moment the page is in view → a dialog shown: the frame the page draws for a tap held before
//   the app runs, or the app's own) and the dialog usable (the app's, its e-mail field drawn);
//   the blocking time the page itself
//   observed (its long tasks by wall time, clipped to the first paint .. a second after
//   hydration, each counted for its time over 50 ms: Lighthouse's rule, without its tracing);
// - the floor: the first paint of an HTML-only copy of `/` (no script, no overlay) served by the
//   same server in the same run, and each page's figures as ratios of it;
// - Lighthouse (mobile, simulated throttling) on `/` and `/docs/intro`: performance,
//   accessibility, best practices, LCP, TBT, CLS, the blocking time by the page's own CPU time in
//   its trace, and the host's CPU index; and on the floor's page as a reference (what Lighthouse
//   gives this machine for the page's HTML and CSS with no script at all). Skip with
//   --no-lighthouse (its budgets are then named as not measured).
// Each figure is printed beside the performance guide's budget (./benchSummary.ts, the one place
// they are written); a run that fails or lacks a figure is named with its reason and the medians
// of the other runs still print. It ends with `bench: every median within budget` or names the
// figures over budget. The machine is noisy: these are figures to read, not a pass/fail test.
// Run with `npm run bench`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '../server/app.ts';
import { writeBrotliCopy } from '../src/prerender/precompress.ts';
import { registerUser } from '../tests/support/api.ts';
import {
  BUDGETS,
  describeRun,
  holds,
  lighthouseFigures,
  median,
  summarise,
  verdict,
} from './benchSummary.ts';
import { mainThreadFigures } from './traceFigures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LIGHTHOUSE_PAGES = ['/', '/docs/intro'];
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const FLOOR_FILE = 'bench-floor.html';
/** `--no-lighthouse`: the player's figures alone (quicker; Lighthouse's budgets not measured). */
const LIGHTHOUSE = !process.argv.includes('--no-lighthouse');

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(build.stdout + build.stderr);
    console.error('bench: the production build failed');
    process.exit(1);
  }
}

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
    if (!result) throw new Error('Lighthouse gave no report');
    const trace = result.artifacts.Trace ?? result.artifacts.traces?.defaultPass;
    // A report without a figure (an audit that failed) still gives the others.
    const { figures, gaps } = lighthouseFigures(result.lhr);
    const traced = mainThreadFigures(trace?.traceEvents);
    const traceGaps = Object.fromEntries(
      Object.keys(traced).map((key) => [key, 'the trace has no navigation, first paint or tasks']),
    );
    return { figures: { ...traced, ...figures }, gaps: { ...traceGaps, ...gaps } };
  } finally {
    await chrome.kill();
  }
}

/** `promise`, or a failure with `what` after a minute. */
async function within(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: ${what}`)), 60_000);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const PHONE = { viewport: { width: 390, height: 844 } };

/**
 * A phone page in Chromium throttled like Lighthouse's mobile profile (the figures' one profile),
 * in `context` (its HTTP cache) when given, else in a new one.
 */
async function throttledPage(browser, context) {
  const page = context ? await context.newPage() : await browser.newPage(PHONE);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return page;
}

/** How long the earlier visit of a returning player's stays, for its later parts to be cached. */
const RETURNING_SETTLE_MS = 3000;

/** How long after the page answers taps its long tasks still count as start-up. */
const BLOCKING_AFTER_HYDRATED_MS = 1000;

/**
 * Lighthouse's blocking-time rule applied to the long tasks the page itself observed on the
 * throttled profile: each task, clipped to the window from the first paint to a second after
 * hydration, counts for its time over 50 ms. Lighthouse computes its TBT from a traced run (its
 * tracing makes every task longer) simulated 4× slower; this is the same rule on what a throttled
 * page really ran (the bench's own in-view probe runs in those tasks too). NaN, printed as
 * "never" and over budget, when the page gave no first paint, no hydration or no long-task entries
 * to observe.
 */
function blockingTime({ longTasks, firstPaint, hydrated }) {
  if (!Array.isArray(longTasks) || !Number.isFinite(firstPaint) || !Number.isFinite(hydrated))
    return NaN;
  const end = hydrated + BLOCKING_AFTER_HYDRATED_MS;
  let sum = 0;
  for (const [start, duration] of longTasks) {
    const clipped = Math.min(start + duration, end) - Math.max(start, firstPaint);
    if (clipped > 50) sum += clipped - 50;
  }
  return sum;
}

/**
 * One visit as a player on a phone: throttled like Lighthouse's mobile profile, timed in the page
 * itself from navigation start. `storage` is written before the page loads (a signed-in visit);
 * `tap` taps Get Access the moment the page comes into view; `returning` visits the page once
 * before, unthrottled and unmeasured, in the same browser, so its files are in the HTTP cache as
 * a returning player's are.
 */
async function visit(url, { storage = {}, tap = false, returning = false } = {}) {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
  try {
    let context;
    if (returning) {
      context = await browser.newContext(PHONE);
      const earlier = await context.newPage();
      await earlier.addInitScript((stored) => {
        for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
      }, storage);
      await earlier.goto(url, { waitUntil: 'load' });
      // The parts a page asks for after its load (the member services, the faces) cached too.
      await earlier.waitForTimeout(RETURNING_SETTLE_MS);
      await earlier.close();
    }
    const page = await throttledPage(browser, context);
    page.on('pageerror', (error) => console.error(`bench: ${url}: page error: ${error.message}`));
    // The page reports when its figures are in through a binding: waiting with
    // page.waitForFunction would run Playwright's injected script in the page while it loads
    // (≈0.25 s of a throttled main thread before the first paint), a cost no player's page pays.
    let finished;
    const done = new Promise((resolve) => (finished = resolve));
    await page.exposeFunction('__benchDone', () => finished());
    await page.addInitScript(
      ([stored, tapOnView]) => {
        for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
        const w = window;
        w.__bench = {};
        let reported = false;
        const report = () => {
          const b = w.__bench;
          const complete =
            b.inView !== undefined &&
            b.hydrated !== undefined &&
            (!tapOnView || (b.answered !== undefined && b.usable !== undefined));
          if (complete && !reported) {
            reported = true;
            w.__benchDone();
          }
        };
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (entry.name === 'smw-hydrated') w.__bench.hydrated = entry.startTime;
          }
          report();
        }).observe({ type: 'mark', buffered: true });
        // The main thread's long tasks, as the page itself sees them (no tracing attached).
        if (PerformanceObserver.supportedEntryTypes.includes('longtask')) {
          w.__bench.longTasks = [];
          w.__benchLongTasks = new PerformanceObserver((list) => {
            for (const entry of list.getEntries())
              w.__bench.longTasks.push([entry.startTime, entry.duration]);
          });
          w.__benchLongTasks.observe({ type: 'longtask', buffered: true });
        }
        let seen = false;
        let viewPending = false;
        let answerPending = false;
        let usablePending = false;
        // The next frame's rendering done: a task posted from its animation-frame callback runs
        // after that frame's paint (a page whose frames are held runs it when they resume).
        const afterFrame = (run) =>
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              channel.port1.close();
              run(performance.now());
            };
            channel.port2.postMessage(null);
          });
        const check = () => {
          const b = w.__bench;
          const overlay = document.querySelector('.loading-overlay');
          const shown =
            overlay !== null &&
            getComputedStyle(overlay).display !== 'none' &&
            getComputedStyle(overlay).visibility !== 'hidden';
          if (shown) seen = true;
          // In view: the loader gone and the page's own content drawn, not a route's empty
          // placeholder (a `main` marked busy while its chunk loads), at the end of the frame
          // that draws it: a page whose markup is ready while the browser holds its frames is
          // not yet in view.
          else if (seen && !viewPending && document.querySelector('main:not([aria-busy="true"])')) {
            viewPending = true;
            b.markupReady = performance.now();
            afterFrame((now) => {
              b.inView = now;
              if (tapOnView) {
                const button = [...document.querySelectorAll('button')].find(
                  (el) => el.textContent?.trim() === 'Get Access',
                );
                b.tapped = button ? performance.now() : NaN;
                button?.click();
              }
              check();
            });
          }
          // Answered: the sign-in dialog drawn, likewise at the end of its frame.
          if (
            b.tapped !== undefined &&
            !answerPending &&
            document.querySelector('[role="dialog"]')
          ) {
            answerPending = true;
            afterFrame((now) => {
              b.answered = now;
              report();
            });
          }
          // Usable: the app's own dialog, its e-mail field drawn (the frame a held tap draws
          // before the app runs answers the tap, but takes no e-mail).
          if (
            b.tapped !== undefined &&
            !usablePending &&
            document.querySelector('[role="dialog"] input[type="email"]')
          ) {
            usablePending = true;
            afterFrame((now) => {
              b.usable = now;
              report();
            });
          }
          report();
        };
        new MutationObserver(check).observe(document, {
          childList: true,
          subtree: true,
          attributes: true,
        });
      },
      [storage, tap],
    );
    await page.goto(url, { waitUntil: 'commit' });
    await within(done, `${url} never came into view`);
    // The start-up's last tasks (the services started with the page, the member services'
    // chunk) run just after the page answers taps: they count too.
    await page.waitForTimeout(BLOCKING_AFTER_HYDRATED_MS);
    const figures = await page.evaluate(() => {
      // Entries the observer has not delivered yet count too.
      for (const entry of window.__benchLongTasks?.takeRecords() ?? [])
        window.__bench.longTasks.push([entry.startTime, entry.duration]);
      return {
        firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        ...window.__bench,
      };
    });
    return { ...figures, blocking: blockingTime(figures) };
  } finally {
    await browser.close();
  }
}

/** The first paint of the floor page: the same page as plain HTML, same server, same profile. */
async function floorPaint(url) {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
  try {
    const page = await throttledPage(browser);
    // Reported through a binding, as the pages' figures are (see visit).
    let painted;
    const paint = new Promise((resolve) => (painted = resolve));
    await page.exposeFunction('__benchPaint', (startTime) => painted(startTime));
    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        const entry = list.getEntriesByName('first-contentful-paint')[0];
        if (entry) window.__benchPaint(entry.startTime);
      }).observe({ type: 'paint', buffered: true });
    });
    await page.goto(url, { waitUntil: 'commit' });
    return await within(paint, `${url} never painted`);
  } finally {
    await browser.close();
  }
}

/**
 * `/` as HTML and CSS only: every script removed, the loading overlay taken out (the page as it is
 * once the loader has stepped aside, its art included).
 */
async function writeFloorPage(dist) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<div class="loading-overlay"[^>]*>[\s\S]*?<\/div>/, '')
    .replace(/<link rel="modulepreload"[^>]*>/gi, '')
    .replace('</head>', '<style>.loading-overlay{display:none!important}</style></head>');
  writeFileSync(join(dist, FLOOR_FILE), html);
  // Sent as the build's pages are (their Brotli copies).
  await writeBrotliCopy(join(dist, FLOOR_FILE));
}

const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'never');
const seconds = (value) => (Number.isFinite(value) ? `${(value / 1000).toFixed(2)} s` : 'never');
const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'never');
const fixed3 = (value) => (Number.isFinite(value) ? value.toFixed(3) : 'never');
const whole = (value) => (Number.isFinite(value) ? String(Math.round(value)) : 'never');

/** A measurement that may fail: its figures, or the reason it failed (the bench goes on). */
async function attempt(measure) {
  try {
    return { figures: await measure() };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Prints a section's rows: [name, shown, budget (a guide's budget, or a note printed as "- …"),
 * value judged by the budget]; then the runs that gave no figure for a row, by run and reason.
 */
function printRows(title, rows) {
  console.log(title);
  for (const { name, shown, budget, value, summary } of rows) {
    const judged = typeof budget === 'object';
    const over = judged && !budget.within(value);
    const text = judged ? budget.text : budget ? `- (${budget})` : '-';
    console.log(
      `  ${name.padEnd(20)} ${String(shown).padStart(9)}   budget ${text}${over ? '   (over)' : ''}`,
    );
    if (summary?.missing.length)
      console.log(
        `  ${''.padEnd(20)} ${''.padStart(9)}   ${summary.measured} of ${summary.of} runs; ${summary.missing.join('; ')}`,
      );
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'smw-bench-'));
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  mode: 'production',
  // The in-process chain: the bench measures pages, no ticket is paid.
  localChain: true,
  // No code is asked for on this server (the signed-in page is measured on the development one
  // below); production refuses to start without a mail transport, so name the staging one.
  mailToLog: true,
  siteDir: join(ROOT, 'dist'),
  log: 'silent',
});
console.log(`bench: production build served at ${server.url}`);

const dist = join(ROOT, 'dist');
await writeFloorPage(dist);
// The signed-in home needs a user: a development-mode server (its outbox holds the code) serving
// the same build.
const devDataDir = mkdtempSync(join(tmpdir(), 'smw-bench-dev-'));
const devServer = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir: devDataDir,
  mode: 'development',
  siteDir: dist,
  log: 'silent',
});

/** The figures held to the guide's budgets, for the closing lines. */
const judged = [];
const judge = (name, shown, value, budget) => {
  judged.push({ name, shown, value, budget });
  return { shown, value, budget };
};
try {
  const floorRuns = [];
  for (let i = 0; i < RUNS; i++)
    floorRuns.push(
      await attempt(async () => ({
        firstPaint: await floorPaint(new URL(FLOOR_FILE, server.url).href),
      })),
    );
  const floorSummary = summarise(floorRuns, 'firstPaint');
  const floor = floorSummary.value;
  printRows(`bench: the floor (${FLOOR_FILE}: / without scripts or overlay), medians of ${RUNS}`, [
    { name: 'first paint', shown: ms(floor), summary: floorSummary },
  ]);

  const pages = [
    {
      name: '/',
      url: new URL('/', server.url).href,
      tap: true,
      inViewBudget: BUDGETS.landingInView,
    },
    { name: '/docs/intro', url: new URL('/docs/intro', server.url).href },
    // A stored jwt means this browser signed in on the site before: the signed-in home is a
    // returning player's page, its files in the cache of the visit that signed in (held to the
    // budget). Right after a new release nothing of it is cached: printed beside it, no budget
    // (docs/performance.md says what bounds it).
    {
      name: 'signed-in home',
      url: new URL('/', devServer.url).href,
      signedIn: true,
      returning: true,
      inViewBudget: BUDGETS.signedInHomeInView,
    },
    {
      name: 'signed-in home, nothing cached (a new release)',
      url: new URL('/', devServer.url).href,
      signedIn: true,
    },
  ];
  for (const p of pages) {
    const visits = [];
    for (let i = 0; i < RUNS; i++) {
      visits.push(
        await attempt(async () => {
          let storage = {};
          if (p.signedIn) {
            const user = await registerUser(devServer.url, `bench-${Date.now()}-${i}@site.test`);
            storage = {
              jwt: user.jwt,
              refreshToken: user.refreshToken,
              sessionToken: user.sessionToken,
            };
          }
          return await visit(p.url, { storage, tap: p.tap, returning: p.returning });
        }),
      );
    }
    const s = (key) => summarise(visits, key);
    const inView = s('inView');
    const rows = [
      { name: 'loader shown', shown: ms(s('firstPaint').value), summary: s('firstPaint') },
      // The page's markup in place, before the browser has drawn it.
      { name: 'page markup ready', shown: seconds(s('markupReady').value) },
      { name: 'page in view', shown: seconds(inView.value), summary: inView },
      {
        name: '  × the floor',
        ...(p.inViewBudget
          ? judge(
              `${p.name} in view`,
              times(inView.value / floor),
              inView.value / floor,
              p.inViewBudget,
            )
          : { shown: times(inView.value / floor) }),
      },
      { name: 'hydrated', shown: seconds(s('hydrated').value), summary: s('hydrated') },
      {
        name: 'blocking time',
        shown: ms(s('blocking').value),
        budget: "the page's long tasks by wall time; the guide's budget is by CPU time, below",
        summary: s('blocking'),
      },
    ];
    if (p.tap) {
      const answered = s('answered');
      rows.push({ name: 'first tap answered', shown: seconds(answered.value), summary: answered });
      const usable = s('usable');
      rows.push({
        name: '  dialog usable',
        shown: seconds(usable.value),
        budget: "the app's dialog, its e-mail field drawn",
        summary: usable,
      });
      rows.push({
        name: '  × the floor',
        ...judge(
          'first tap answered',
          times(answered.value / floor),
          answered.value / floor,
          BUDGETS.firstTapAnswered,
        ),
      });
    }
    printRows(`bench: ${p.name}, throttled Chromium, medians of ${RUNS}`, rows);
  }

  // Lighthouse on each page and on the floor (the same page with no script at all: what
  // Lighthouse gives this machine's Chromium for the page's HTML and CSS alone), run after run
  // in turn so that the three see the same machine.
  const lighthousePages = [
    ...LIGHTHOUSE_PAGES.map((path) => ({ path, reference: false })),
    { path: `/${FLOOR_FILE}`, reference: true },
  ];
  const lighthouseRuns = new Map(lighthousePages.map(({ path }) => [path, []]));
  for (let i = 0; i < (LIGHTHOUSE ? RUNS : 0); i++) {
    for (const { path } of lighthousePages) {
      // A report may lack a figure (a failed audit): which one and why is in its gaps.
      const attempted = await attempt(() => runOnce(new URL(path, server.url).href));
      const result = 'failed' in attempted ? attempted : attempted.figures;
      lighthouseRuns.get(path).push(result);
      console.log(
        `  ${path} Lighthouse run ${i + 1}: ` +
          describeRun(result, [
            ['perf', 'performance', whole],
            ['LCP', 'lcp', ms],
            ['TBT', 'tbt', ms],
            ['CLS', 'cls', fixed3],
            ['CPU index', 'benchmarkIndex', whole],
            ['trace blocking by wall time', 'wallBlocking', ms],
            ['by CPU time', 'cpuBlocking', ms],
            ['wall/CPU', 'waitRatio', times],
          ]),
      );
    }
  }
  for (const { path, reference } of LIGHTHOUSE ? lighthousePages : []) {
    const runs = lighthouseRuns.get(path);
    const s = (key) => summarise(runs, key);
    const cpuRow = (budget) => ({
      name: '  by CPU time',
      ...(budget
        ? judge(
            `${path} blocking by CPU time`,
            ms(s('cpuBlocking').value),
            s('cpuBlocking').value,
            budget,
          )
        : { shown: ms(s('cpuBlocking').value), budget: 'the machine alone' }),
      summary: s('cpuBlocking'),
    });
    const waitRow = {
      name: '  wall / CPU',
      shown: times(s('waitRatio').value),
      budget: 'time off the CPU: mostly waiting for a core',
      summary: s('waitRatio'),
    };
    if (reference) {
      // A reference, not a budget: the floor has no script, so its blocking time is the
      // machine's alone.
      printRows(`bench: the floor (${path}, no script), Lighthouse mobile, medians of ${RUNS}`, [
        {
          name: 'performance',
          shown: whole(s('performance').value),
          budget: 'reference',
          summary: s('performance'),
        },
        { name: 'TBT', shown: ms(s('tbt').value), budget: 'reference', summary: s('tbt') },
        cpuRow(),
        waitRow,
      ]);
      continue;
    }
    const scored = (name, key, format = whole) => ({
      name,
      ...judge(`${path} Lighthouse ${name}`, format(s(key).value), s(key).value, BUDGETS[key]),
      summary: s(key),
    });
    printRows(`bench: ${path}, Lighthouse mobile, medians of ${RUNS}`, [
      scored('performance', 'performance'),
      scored('accessibility', 'accessibility'),
      scored('best practices', 'bestPractices'),
      {
        name: 'LCP',
        shown: ms(s('lcp').value),
        budget: 'a proxy: painted under the overlay',
        summary: s('lcp'),
      },
      {
        name: 'TBT',
        shown: ms(s('tbt').value),
        budget: "by wall time, mostly waiting for a core here; the budget is the page's CPU time",
        summary: s('tbt'),
      },
      cpuRow(BUDGETS.cpuBlocking),
      waitRow,
      scored('CLS', 'cls', fixed3),
    ]);
  }
  // The host's speed beside the ratios (the guide: each ratio with the CPU index).
  const indexes = [...lighthouseRuns.values()]
    .flat()
    .flatMap((run) => ('failed' in run ? [] : [run.figures.benchmarkIndex]))
    .filter((value) => Number.isFinite(value));
  const cpuIndex = indexes.length
    ? `CPU index ${whole(median(indexes))} (Lighthouse, ${whole(Math.min(...indexes))}–${whole(Math.max(...indexes))} over ${indexes.length} runs)`
    : 'CPU index not measured (no Lighthouse run gave one)';
  console.log(`bench: the budgets, medians of ${RUNS}, the floor ${ms(floor)}, ${cpuIndex}`);
  for (const j of judged)
    console.log(
      `  ${j.name.padEnd(38)} ${j.shown.padStart(7)}   budget ${j.budget.text}${holds(j) ? '' : Number.isFinite(j.value) ? '   (over)' : '   (not measured)'}`,
    );
} finally {
  await server.close();
  await devServer.close();
  rmSync(join(dist, FLOOR_FILE), { force: true });
  rmSync(join(dist, `${FLOOR_FILE}.br`), { force: true });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(devDataDir, { recursive: true, force: true });
}
console.log(verdict(judged));
