#!/usr/bin/env node
// Bundle budget of the landing page (performance.md): the production build's initial JS, that is
// every script dist/index.html starts with (its entry tags and modulepreloads, its preloaded entry
// marked data-app-entry, and the app's second stage its head's boot script fetches), gzip level 6,
// at most 112 KB (1 KB = 1000 bytes), the performance guide's budget for a build with wouter. The
// initial chunks must not contain @solana/web3.js, elkjs or
// the machine visualiser; each is recognised by strings its code always carries.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const BUDGET_KB = 112;

/** Strings that survive minification and identify what must stay out of the initial JS. */
export const FORBIDDEN = [
  {
    what: '@solana/web3.js',
    markers: [
      'Invalid public key input',
      'failed to get recent blockhash',
      'Transaction recentBlockhash required',
    ],
  },
  { what: 'elkjs', markers: ['org.eclipse.elk'] },
  {
    what: 'the machine visualiser (src/devtools)',
    markers: ['smw-devtools-visualiser', 'smw-devtools-inspector'],
  },
];

function fail(message) {
  console.error(`size: FAIL ${message}`);
  process.exit(1);
}

if (!process.argv.includes('--no-build')) {
  const started = Date.now();
  const build = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(`${(build.stdout + build.stderr).split('\n').slice(-60).join('\n')}\n`);
    fail('the production build (vite build) failed, see above.');
  }
  console.log(`size: production build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const indexFile = join(DIST, 'index.html');
if (!existsSync(indexFile)) fail('dist/index.html is missing after the build.');
const html = readFileSync(indexFile, 'utf8');

const attr = (tag, name) => tag.match(new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i'))?.[1];
const entries = [...html.matchAll(/<script\b[^>]*>/gi)]
  .map((m) => m[0])
  .filter((tag) => /type\s*=\s*["']module["']/i.test(tag) && attr(tag, 'src'))
  .map((tag) => attr(tag, 'src'));
const preloads = [...html.matchAll(/<link\b[^>]*>/gi)]
  .map((m) => m[0])
  .filter((tag) => /rel\s*=\s*["']modulepreload["']/i.test(tag))
  .map((tag) => attr(tag, 'href'));
// A pre-rendered page preloads its entry (marked data-app-entry) for the head's boot script to
// run once the session is known (src/app/bootInline.ts).
for (const tag of [...html.matchAll(/<link\b[^>]*\bdata-app-entry\b[^>]*>/gi)].map((m) => m[0])) {
  entries.push(attr(tag, 'href'));
}
// The app's second stage (React and the views), which the head's boot script fetches with every
// page right after the session's calls: the `app` list of the page's #smw-tap-preloads block.
const listed = /<script type="application\/json" id="smw-tap-preloads">([^<]*)<\/script>/.exec(
  html,
);
if (listed) {
  const app = JSON.parse(listed[1]).app;
  if (Array.isArray(app)) preloads.push(...app);
}
const files = [...new Set([...entries, ...preloads])].filter(Boolean);
if (entries.length === 0)
  fail('dist/index.html has no entry script (module script or app loader).');

const rows = [];
let totalGzip = 0;
const problems = [];
for (const href of files) {
  if (/^(https?:)?\/\//.test(href)) {
    problems.push(`initial script from another origin: ${href}`);
    continue;
  }
  const file = join(DIST, href.replace(/^\.?\//, '').split(/[?#]/)[0]);
  if (!existsSync(file)) {
    problems.push(`initial script not found in dist/: ${href}`);
    continue;
  }
  const code = readFileSync(file);
  const gz = gzipSync(code, { level: 6 }).length;
  totalGzip += gz;
  rows.push({ href, raw: code.length, gz });
  const text = code.toString('utf8');
  for (const { what, markers } of FORBIDDEN) {
    const hit = markers.find((marker) => text.includes(marker));
    if (hit) problems.push(`${what} is in the initial chunk ${href} (found "${hit}")`);
  }
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
console.log('size: initial JS of the landing page (dist/index.html entry + modulepreloads)');
for (const row of rows)
  console.log(
    `  ${row.href.padEnd(48)} ${kb(row.raw).padStart(8)} KB raw ${kb(row.gz).padStart(7)} KB gzip`,
  );
console.log(
  `size: checked ${rows.length} initial chunk(s) for ${FORBIDDEN.map((f) => f.what).join(', ')}`,
);
console.log(`size: initial JS ${kb(totalGzip)} KB gzip (level 6), budget ${BUDGET_KB} KB`);
if (problems.length > 0) fail(problems.join('\n  '));
if (totalGzip > BUDGET_KB * 1000) {
  console.error(
    `size: FAIL initial JS ${kb(totalGzip)} KB gzip is above the ${BUDGET_KB} KB budget`,
  );
  process.exit(1);
}
console.log('size: OK');
