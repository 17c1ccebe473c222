#!/usr/bin/env node
// `npm run test:paths`: the model project only (generated paths + properties), then a table per
// machine (paths passed/failed, states and transitions covered/total, what is uncovered and
// why), reports/paths/junit.xml and a self-contained reports/paths/index.html. Exits non-zero on
// a failed path, on coverage below 100% without a written reason per gap, and when a machine in
// machines/ has no model test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const FILES = process.argv.slice(2);
const OUT = join(ROOT, 'reports/paths');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'model',
    '--reporter=default',
    '--reporter=junit',
    `--outputFile.junit=${join(OUT, 'junit.xml')}`,
    // `npm run test:paths -- tests/model/x.paths.test.ts` runs only those files.
    ...FILES,
  ],
  { cwd: ROOT, stdio: 'inherit' },
);

const machines = readdirSync(join(ROOT, 'machines'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && existsSync(join(ROOT, 'machines', d.name, `${d.name}.machine.ts`)),
  )
  .map((d) => d.name)
  .sort();
const reports = readdirSync(OUT)
  .filter((f) => f.endsWith('.json') && f !== 'clauses.json')
  .map((f) => JSON.parse(readFileSync(join(OUT, f), 'utf8')))
  .sort((a, b) => a.machine.localeCompare(b.machine));

const failures = [];
const pct = (n, d) => (d === 0 ? '100%' : `${Math.floor((n / d) * 1000) / 10}%`);
// Path runs per driver: a model with an actor and a view driver runs each generated path twice.
const perDriver = (r) =>
  Object.entries(r.paths.byDriver ?? { all: { passed: r.paths.passed, failed: r.paths.failed } })
    .map(
      ([driver, n]) =>
        `${driver} ${n.passed}/${n.passed + n.failed}${n.failed ? ` (${n.failed} failed)` : ''}`,
    )
    .join(', ');
const cut = (r) =>
  (r.generation?.truncated ?? [])
    .map((t) => `${t.input}: ${t.found} found, ${t.kept} run`)
    .join('; ');
// Gaps with a written reason (listed below the table, unfolded in the HTML).
const explained = (gaps) => {
  const n = gaps.filter((g) => g.reason).length;
  return n ? ` (${n} explained)` : '';
};
const rows = reports.map((r) => ({
  machine: r.machine,
  generated: `${r.paths.generated}${cut(r) ? ` (maxPaths cut: ${cut(r)})` : ''}`,
  paths: perDriver(r),
  states: `${r.states.covered}/${r.states.total} ${pct(r.states.covered, r.states.total)}${explained(r.states.uncovered)}`,
  transitions: `${r.transitions.covered}/${r.transitions.total} ${pct(r.transitions.covered, r.transitions.total)}${explained(r.transitions.uncovered)}`,
  ok: r.paths.failed === 0 && r.problems.length === 0,
}));
const missing =
  FILES.length > 0 ? [] : machines.filter((m) => !reports.some((r) => r.machine === m));

/** Prints rows as aligned columns (the last column is not padded). */
function printTable(table) {
  const widths = table[0].map((_, i) =>
    i === table[0].length - 1 ? 0 : Math.max(...table.map((row) => String(row[i]).length)),
  );
  for (const row of table)
    console.log(
      '  ' +
        row
          .map((c, i) => String(c).padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
    );
}

console.log('\npaths: generated path tests per machine');
printTable([
  ['machine', 'paths generated', 'runs passed per driver', 'states', 'transitions', ''],
  ...rows.map((r) => [
    r.machine,
    r.generated,
    r.paths,
    r.states,
    r.transitions,
    r.ok ? 'ok' : 'FAIL',
  ]),
]);
for (const r of reports) {
  const gaps = [
    ...r.states.uncovered.map((s) => ({ ...s, kind: 'state' })),
    ...r.transitions.uncovered.map((t) => ({ ...t, kind: 'transition' })),
  ];
  if (gaps.length > 0 || r.problems.length > 0) console.log(`\n  ${r.machine}:`);
  for (const g of gaps)
    console.log(
      `    uncovered ${g.kind} ${g.key}\n      ${g.reason ? `reason: ${g.reason}` : 'NO REASON GIVEN'}`,
    );
  for (const p of r.problems) failures.push(`${r.machine}: ${p}`);
  for (const key of r.staleReasons ?? [])
    console.log(`    note: a reason is given for something the paths cover: ${key}`);
  // One line per group of failed paths (same event, check and message): one broken rule, N paths.
  for (const g of r.groups ?? [])
    failures.push(
      `${r.machine} (${g.driver}): ${g.headline ?? g.message}\n      ${g.paths.length} path(s) fail first at ${g.transition}\n      check: ${g.check}: ${g.message}${g.expected !== undefined ? `\n      expected: ${g.expected}\n      actual:   ${g.actual}` : ''}`,
    );
  for (const t of r.generation?.truncated ?? [])
    console.log(
      `    ${r.machine}: ${t.found} paths found for ${t.input}, only ${t.kept} run (paths.maxPaths)`,
    );
}
// Guard outcomes (each guard seen true and false; each condition of and/or flipping the outcome
// alone) and transition pairs walked: reported per machine, gaps listed (not yet a failure).
console.log('\nguards and pairs: per machine');
for (const r of reports) {
  const g = r.guards;
  if (!g) {
    console.log(`  ${r.machine}: guards: not computed`);
    continue;
  }
  const total = g.sites.length;
  console.log(
    `  ${r.machine}: guards: ${g.bothWays}/${total} both ways; pairs: ${g.pairs.walked}/${g.pairs.possible} walked`,
  );
  for (const site of g.sites) {
    const missingWays = [!site.seenTrue && 'never true', !site.seenFalse && 'never false'].filter(
      Boolean,
    );
    const dependent = (site.conditions ?? []).filter((c) => !c.independent).map((c) => c.name);
    if (missingWays.length === 0 && dependent.length === 0) continue;
    const why = [
      ...missingWays,
      ...(dependent.length ? [`no path flips the outcome by ${dependent.join(', ')} alone`] : []),
    ].join('; ');
    const reason = r.guardReasons?.[site.key];
    console.log(`    ${site.name} at ${site.key}: ${why}${reason ? ` — reason: ${reason}` : ''}`);
  }
}

for (const m of missing)
  failures.push(
    `machine "${m}" has no model test (tests/model/${m}.paths.test.ts writing reports/paths/${m}.json)`,
  );
if (run.status !== 0 && failures.length === 0)
  failures.push(`vitest exited with code ${run.status} (see the output above)`);

// The clause view: per clause of the spec, the paths that walk it, the checks that assert it,
// the browser tests that show it, and its status. Testable clauses with no check come first,
// then those the registry says are not testable (with the reason), then failing, then the rest.
const registry = existsSync(join(OUT, 'clauses.json'))
  ? JSON.parse(readFileSync(join(OUT, 'clauses.json'), 'utf8'))
  : null;
// Runs saved from the visualiser's sandbox (tests/model/recorded), with the clauses they walk.
const recordedDir = join(OUT, 'recorded');
const recorded = existsSync(recordedDir)
  ? readdirSync(recordedDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(recordedDir, f), 'utf8')))
  : [];
// The last browser run (npm test writes reports/e2e.json): each test's outcome by its title.
const e2eOutcome = new Map();
const e2eReport = join(ROOT, 'reports/e2e.json');
if (existsSync(e2eReport)) {
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) e2eOutcome.set(spec.title, spec.ok ? 'passed' : 'failed');
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of JSON.parse(readFileSync(e2eReport, 'utf8')).suites ?? []) walk(suite);
}
const e2eStatus = (title) => e2eOutcome.get(title) ?? 'not run here';
const clauseRows = (registry ?? []).map((c) => {
  const replays = recorded.filter((r) => r.clauses.includes(c.id));
  const walking = reports.flatMap((r) =>
    r.paths.results
      .filter((p) => (p.clauses ?? []).includes(c.id))
      .map((p) => ({ ...p, machine: r.machine })),
  );
  const failedRuns = walking.filter((p) => p.status === 'failed');
  const failedGroups = reports.flatMap((r) =>
    (r.groups ?? []).filter((g) => (g.clause ?? '').includes(`${c.id} (`)),
  );
  const stateChecks = reports.flatMap((r) =>
    Object.entries(r.checks ?? {}).flatMap(([driver, byState]) =>
      Object.entries(byState)
        .filter(([, ids]) => ids.includes(c.id))
        .map(([state]) => `${r.machine} (${driver}) state check '${state}'`),
    ),
  );
  const checks = [...c.checks.map((k) => `${k.kind}: ${k.what} — ${k.file}`), ...stateChecks];
  const machines = [...new Set(walking.map((p) => p.machine))];
  let status;
  let order;
  if (!c.testable) [status, order] = ['not testable', 1];
  else if (checks.length === 0 && c.e2e.length === 0) [status, order] = ['NO CHECK', 0];
  else if (
    failedGroups.length > 0 ||
    replays.some((r) => r.status === 'failed') ||
    c.e2e.some((e) => e2eStatus(e.title) === 'failed')
  )
    [status, order] = [
      `FAIL (${[
        failedGroups.length &&
          `${failedGroups.reduce((n, g) => n + g.paths.length, 0)} path run(s)`,
        replays.some((r) => r.status === 'failed') && 'a recorded run',
        c.e2e.some((e) => e2eStatus(e.title) === 'failed') && 'a browser test',
      ]
        .filter(Boolean)
        .join(', ')} break it)`,
      2,
    ];
  else if (failedRuns.length > 0)
    [status, order] = [`ok (${failedRuns.length} run(s) walking it fail on another clause)`, 2];
  else [status, order] = ['ok', 3];
  return {
    ...c,
    order,
    status,
    walking: walking.length,
    machines,
    example: walking.find((p) => p.status === 'failed') ?? walking[0],
    checkList: checks,
    replays,
  };
});
clauseRows.sort((a, b) => a.order - b.order);
if (!registry) failures.push('no clause registry report (tests/model/clauses.test.ts did not run)');
for (const c of clauseRows.filter((c) => c.order === 0))
  failures.push(`${c.id} (${c.title}): testable, but no check asserts it`);
if (registry) {
  console.log('\nclauses: the spec clause by clause (paths that walk it, checks, browser tests)');
  printTable([
    ['clause', 'paths', 'checks', 'e2e', 'recorded', 'status', 'title'],
    ...clauseRows.map((c) => [
      c.id,
      c.walking ? `${c.walking} (${c.machines.join(', ')})` : '-',
      String(c.checkList.length),
      String(c.e2e.length),
      String(c.replays.length),
      c.status,
      c.testable ? c.title : `${c.title} — reason: ${c.reason}`,
    ]),
  ]);
  const noCheck = clauseRows.filter((c) => c.order === 0).length;
  const untestable = clauseRows.filter((c) => c.order === 1).length;
  console.log(
    `  clauses: ${clauseRows.length}; testable with no check: ${noCheck}; not testable (with the reason): ${untestable}; failing: ${clauseRows.filter((c) => c.order === 2).length}`,
  );
}

// Self-contained HTML report (no external assets).
const esc = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );
const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Generated paths</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;background:#111;color:#eee}table{border-collapse:collapse}
td,th{border:1px solid #444;padding:.3rem .6rem;text-align:left}.ok{color:#6c6}.fail{color:#f66}details{margin:.6rem 0}
code{background:#222;padding:0 .2rem}li{margin:.15rem 0}</style>
<h1>Generated path tests</h1><p>${new Date().toISOString()} — ${failures.length === 0 ? '<span class="ok">all good</span>' : `<span class="fail">${failures.length} problem(s)</span>`}</p>
<p>What is counted: each generated path runs once per driver (the machine as an actor, and where a
model has one, its rendered view), so "runs passed" are per driver. What is cut: a model whose
paths exceed its maxPaths runs the first ones (those that walk a step no earlier one walks first);
the column "paths generated" says how many were found and run. What is explained: every state or
transition no path covers is listed below with its written reason.</p>
<table><tr><th>machine</th><th>paths generated</th><th>runs passed per driver</th><th>states</th><th>transitions</th><th></th></tr>
${rows.map((r) => `<tr><td>${esc(r.machine)}</td><td>${esc(r.generated)}</td><td>${esc(r.paths)}</td><td>${esc(r.states)}</td><td>${esc(r.transitions)}</td><td class="${r.ok ? 'ok' : 'fail'}">${r.ok ? 'ok' : 'FAIL'}</td></tr>`).join('\n')}
${missing.map((m) => `<tr><td>${esc(m)}</td><td colspan="4" class="fail">no model test</td><td class="fail">FAIL</td></tr>`).join('\n')}
</table>
<h2 id="uncovered">Uncovered, with the reason</h2>
<ul>${reports.flatMap((r) => [...r.states.uncovered, ...r.transitions.uncovered].map((g) => `<li><b>${esc(r.machine)}</b> <code>${esc(g.key)}</code> — ${g.reason ? esc(g.reason) : '<span class="fail">no reason</span>'}</li>`)).join('') || '<li>nothing: every state and transition is walked</li>'}</ul>
<h2 id="clauses">Spec clauses</h2>
<p>${clauseRows.length} clauses of the spec (tests/support/clauses.ts): the path runs that walk each, the checks that assert it (spec transitions, oracle entries, tagged assertions and state checks), the browser tests that show it, the runs recorded in the visualiser's sandbox that walk it (tests/model/recorded, replayed by the model tests). Testable clauses with no check come first, then those that are not testable with the reason.</p>
<table><tr><th>clause</th><th>title</th><th>path runs</th><th>checks</th><th>e2e</th><th>recorded runs</th><th>status</th></tr>
${clauseRows.map((c) => `<tr class="clause" id="${esc(c.id)}"><td><code>${esc(c.id)}</code></td><td>${esc(c.title)}</td><td>${c.walking}${c.machines.length ? ` (${esc(c.machines.join(', '))})` : ''}${c.example ? `<br><small>e.g. [${esc(c.example.driver)}] ${esc(c.example.description)}</small>` : ''}</td><td>${c.checkList.length ? `<ul>${c.checkList.map((k) => `<li>${esc(k)}</li>`).join('')}</ul>` : '-'}</td><td>${c.e2e.length ? `<ul>${c.e2e.map((e) => `<li class="${e2eStatus(e.title) === 'failed' ? 'fail' : e2eStatus(e.title) === 'passed' ? 'ok' : ''}">${esc(e.title)} — ${esc(e.file)} (${esc(e2eStatus(e.title))})</li>`).join('')}</ul>` : '-'}</td><td>${c.replays.length ? `<ul>${c.replays.map((r) => `<li class="${r.status === 'passed' ? 'ok' : 'fail'}"><a href="../../${esc(r.file)}">${esc(r.file)}</a> (${esc(r.status)}): ${esc(r.title)}</li>`).join('')}</ul>` : '-'}</td><td class="${c.order === 0 || c.status.startsWith('FAIL') ? 'fail' : c.order === 1 ? '' : 'ok'}">${esc(c.status)}${c.testable ? '' : `<br>reason: ${esc(c.reason)}`}</td></tr>`).join('\n')}
</table>
<p><label>Filter <input id="filter" type="search" placeholder="machine, state, event, check…" autofocus></label>
<label><input id="onlyFailed" type="checkbox" ${failures.length ? 'checked' : ''}> failures only</label></p>
${failures.length ? `<h2 id="failures">Failures, grouped by first failing step</h2>` : ''}
${reports
  .flatMap((r) =>
    (r.groups ?? []).map(
      (
        g,
      ) => `<details class="group fail" open data-text="${esc(`${r.machine} ${g.driver} ${g.transition} ${g.check} ${g.message}`)}"><summary><b>${esc(r.machine)}</b> (${esc(g.driver)}) — <b>${esc(g.headline ?? g.message)}</b><br><b>${g.paths.length} path(s)</b> fail first at <code>${esc(g.transition)}</code></summary>
<p>check: ${esc(g.check)}<br>${esc(g.message)}${g.expected !== undefined ? `<br>expected: <code>${esc(g.expected)}</code><br>actual: <code>${esc(g.actual)}</code>` : ''}</p>
${g.stack ? `<pre>${esc(g.stack)}</pre>` : ''}<ul>${g.paths.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></details>`,
    ),
  )
  .join('\n')}
${failures.length ? `<h2>Problems</h2><ul>${failures.map((f) => `<li class="fail"><pre>${esc(f)}</pre></li>`).join('')}</ul>` : ''}
${reports
  .map(
    (
      r,
    ) => `<details><summary><b>${esc(r.machine)}</b> — ${r.paths.generated} paths (${esc(perDriver(r))})</summary>
<h3>Paths</h3><ul>${r.paths.results.map((p) => `<li class="path ${p.status === 'passed' ? 'ok' : 'fail'}">[${esc(p.driver)}] ${esc(p.description)}${p.clauses?.length ? ` <small>${esc(p.clauses.join(' '))}</small>` : ''}${p.error ? `<pre>${esc(p.error)}</pre>` : ''}</li>`).join('')}</ul>
<h3>Transitions</h3><ul>${r.transitions.all.map((t) => `<li><code>${esc(t)}</code></li>`).join('')}</ul></details>`,
  )
  .join('\n')}
<script>
const filter = document.getElementById('filter');
const only = document.getElementById('onlyFailed');
function apply() {
  const q = filter.value.toLowerCase();
  for (const el of document.querySelectorAll('.group, li.path')) {
    const text = (el.dataset.text || el.textContent).toLowerCase();
    const hideOk = only.checked && el.classList.contains('ok');
    el.hidden = hideOk || (q !== '' && !text.includes(q));
  }
}
filter.addEventListener('input', apply);
only.addEventListener('change', apply);
apply();
if (document.getElementById('failures')) location.hash = 'failures';
</script>
</html>`;
writeFileSync(join(OUT, 'index.html'), html);

console.log(`\npaths: reports in reports/paths/ (index.html, junit.xml, <machine>.json)`);
if (failures.length > 0) {
  console.error(`paths: FAIL\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `paths: OK — ${reports.length} machine(s), every state and transition covered or explained, every testable clause checked`,
);
