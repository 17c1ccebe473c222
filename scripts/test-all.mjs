#!/usr/bin/env node
// `npm test`: the gates (typecheck, lint, formatting, no dead code (knip), bundle budget, docs/machines up to date), then every test layer (Vitest projects
// unit and model, with the property tests inside model; the model files that read an instant again
// under TZ=America/New_York and TZ=Asia/Kolkata; Playwright e2e in Debian Chromium). Sums
// passed / failed / skipped over the layers from their JSON reports and prints, as the very last
// line, `tests: N passed, N failed` (plus `, N skipped` if any). Exits non-zero on any failure,
// and a layer that could not run counts as a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ZONE_FILES, ZONES } from './model-zones.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const REPORTS = join(ROOT, 'reports');
mkdirSync(REPORTS, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const layers = [];
/** One line per store engine the server's tests ran on. */
const storeLines = [];
/** Each failed test of the Vitest layers, named again in the summary (their output scrolls away). */
const failures = [];
const startedAt = Date.now();
let layerStarted = Date.now();

const formatSeconds = (seconds) =>
  seconds >= 60
    ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
    : `${seconds.toFixed(1)} s`;

function closingLine() {
  const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
  return `tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`;
}

function finish() {
  console.log('');
  for (const l of layers) {
    const took = l.seconds === undefined ? '' : `, ${formatSeconds(l.seconds)}`;
    console.log(
      `  ${l.name.padEnd(8)} ${l.passed} passed, ${l.failed} failed, ${l.skipped} skipped${took}${l.note ? `  (${l.note})` : ''}`,
    );
  }
  for (const line of storeLines) console.log(`  ${line}`);
  for (const line of failures) console.log(`  failed   ${line}`);
  console.log(`  total    ${formatSeconds((Date.now() - startedAt) / 1000)}`);
  console.log(closingLine());
  process.exit(totals.failed > 0 ? 1 : 0);
}

function run(cmd, args, env = {}) {
  return spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
}

function gate(script, args = []) {
  const command = ['npm run', script, ...(args.length ? ['--', ...args] : [])].join(' ');
  console.log(`\n== ${command}`);
  const result = run('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])]);
  if (result.status !== 0) {
    console.error(
      `\nnpm test: the ${script} gate failed (${command}); fix it first. No test layer ran.`,
    );
    // The gates are not tests; the layers they kept from running count as failed.
    for (const name of ['vitest', ...ZONES.map((zone) => `model ${zone}`), 'postgres', 'e2e'])
      addLayer(name, null, 1, `not run: the ${script} gate failed`);
    finish();
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function addLayer(name, counts, exitCode, problem) {
  const layer = {
    name,
    passed: 0,
    failed: 0,
    skipped: 0,
    note: '',
    seconds: (Date.now() - layerStarted) / 1000,
  };
  layerStarted = Date.now();
  if (counts) Object.assign(layer, counts);
  if (exitCode !== 0 && layer.failed === 0) {
    // The runner failed without a failing test: a load error, a setup failure, no tests found.
    layer.failed = 1;
    layer.note = problem;
    console.error(`\nnpm test: the ${name} layer failed: ${problem}`);
  }
  layers.push(layer);
  totals.passed += layer.passed;
  totals.failed += layer.failed;
  totals.skipped += layer.skipped;
}

for (const script of ['typecheck', 'lint', 'format:check', 'knip', 'size']) gate(script);
gate('machines:export', ['--check']);
layerStarted = Date.now();
console.log(`\n  gates    ${formatSeconds((Date.now() - startedAt) / 1000)}`);

/** Tests of the server's layer (tests/unit/server) in a Vitest JSON report, by outcome. */
function serverTests(report) {
  const counts = { passed: 0, failed: 0 };
  for (const file of report?.testResults ?? []) {
    if (!file.name.includes('/tests/unit/server/')) continue;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') counts.passed += 1;
      else if (test.status === 'failed') counts.failed += 1;
    }
  }
  return counts;
}
/** Names each failed test (and each file that failed to load) of a Vitest report in `failures`. */
function noteFailures(layer, report) {
  for (const file of report?.testResults ?? []) {
    const where = relative(ROOT, file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`${layer}: ${where}: ${String(file.message ?? '').split('\n')[0]}`);
    for (const test of failed) {
      const why = String(test.failureMessages?.[0] ?? '').split('\n')[0];
      failures.push(`${layer}: ${where} › ${test.fullName ?? test.title}: ${why.slice(0, 200)}`);
    }
  }
}
/** Names each failed browser test of a Playwright JSON report in `failures`. */
function noteBrowserFailures(report) {
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      if (spec.ok === false) failures.push(`e2e: ${spec.file}:${spec.line} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report?.suites ?? []) walk(suite);
}
const storeLine = (engine, counts) =>
  `store: ${engine}, ${counts.passed} tests passed${counts.failed ? `, ${counts.failed} failed` : ''}`;

// Vitest: unit and model (generated paths + properties).
{
  console.log('\n== vitest run (unit, model)');
  const out = join(REPORTS, 'vitest.json');
  rmSync(out, { force: true });
  const result = run('npx', [
    'vitest',
    'run',
    '--project',
    'unit',
    '--project',
    'model',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const report = readJson(out);
  noteFailures('vitest', report);
  const fileErrors = (report?.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  const counts = report && {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + fileErrors,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
  if (report) storeLines.push(storeLine('sqlite', serverTests(report)));
  addLayer(
    'vitest',
    counts,
    result.status ?? 1,
    report
      ? `vitest exited with code ${result.status} (see the output above)`
      : 'vitest wrote no report (see the output above)',
  );
}

// The model layer again in time zones far from UTC, for the files that read an instant
// (scripts/model-zones.mjs says which and why).
for (const zone of ZONES) {
  console.log(`\n== vitest run (model, TZ=${zone})`);
  const out = join(REPORTS, `vitest-${zone.replace('/', '-')}.json`);
  rmSync(out, { force: true });
  const result = run(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'model',
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...ZONE_FILES,
    ],
    { TZ: zone },
  );
  const report = readJson(out);
  noteFailures(`model ${zone}`, report);
  const counts = report && {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
  addLayer(
    `model ${zone}`,
    counts,
    result.status ?? 1,
    report
      ? `vitest (TZ=${zone}) exited with code ${result.status} (see the output above)`
      : `vitest (TZ=${zone}) wrote no report (see the output above)`,
  );
}

// The server's layer again on a real PostgreSQL that the run starts (Debian's postgresql).
{
  console.log('\n== vitest run (server-postgres: the server tests on PostgreSQL)');
  const out = join(REPORTS, 'vitest-postgres.json');
  const versionFile = join(REPORTS, 'postgres-version.txt');
  rmSync(out, { force: true });
  rmSync(versionFile, { force: true });
  const result = run(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'server-postgres',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { SMW_POSTGRES_VERSION_FILE: versionFile },
  );
  const report = readJson(out);
  noteFailures('postgres', report);
  const counts = report && {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
  if (report) {
    const version = existsSync(versionFile) ? readFileSync(versionFile, 'utf8').trim() : 'unknown';
    storeLines.push(storeLine(`postgres ${version}`, serverTests(report)));
  }
  addLayer(
    'postgres',
    counts,
    result.status ?? 1,
    report
      ? `vitest exited with code ${result.status} (see the output above)`
      : 'vitest wrote no report: PostgreSQL could not start (see the output above)',
  );
}

// Playwright: the built site against the real local server in Debian Chromium.
{
  console.log('\n== playwright test (e2e)');
  const chrome = process.env.CHROME_PATH || '/usr/bin/chromium';
  const out = join(REPORTS, 'e2e.json');
  rmSync(out, { force: true });
  if (!existsSync(chrome)) {
    addLayer(
      'e2e',
      null,
      1,
      `Chromium not found at ${chrome}: run \`apt-get install -y chromium\` or set CHROME_PATH`,
    );
  } else {
    const result = run('npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      // `npm run size` has just built dist/ for production.
      E2E_SKIP_PROD_BUILD: '1',
    });
    const report = readJson(out);
    noteBrowserFailures(report);
    const stats = report?.stats;
    const setupErrors = (report?.errors ?? []).length;
    const counts = stats && {
      passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
      failed: (stats.unexpected ?? 0) + (stats.expected || stats.unexpected ? 0 : setupErrors),
      skipped: stats.skipped ?? 0,
    };
    addLayer(
      'e2e',
      counts,
      result.status ?? 1,
      report
        ? `playwright exited with code ${result.status}${setupErrors ? ` with ${setupErrors} error(s) outside tests (global setup, server, build)` : ''}`
        : 'playwright wrote no report: the browser or the local server could not start (see above)',
    );
  }
}

finish();
