#!/usr/bin/env node
// `npm run test:mutation`: StrykerJS over machines/, run twice: against the model tests and
// against model + unit tests (tests/mutation/stryker.config.mjs, one vitest at a time). Prints one
// row per machine folder with both scores. Not part of `npm test` (it takes long on 2 cores).
//
// Model scope, per machine folder: the mutants of machines/<name>/ meet that machine's own model
// tests (tests/model/<name>.*.test.ts[x]) and the check that every machine has a model — a
// machine's score is what its own generated paths and properties catch, and each mutant runs in
// seconds instead of the whole model project. Folders without a model of their own (shared/)
// meet every model test. MUTATION_OWN_TESTS=0 runs every model test for every folder instead.
//
// MUTATE=machines/notifications/**/*.ts,machines/taglines/**/*.ts restricts the mutated files;
// MUTATION_SCOPES=model (or all) runs one scope only; REPORT_ONLY=1 re-reads the last reports.
// MUTATION_CONCURRENCY=2 runs two test runners (default one: the machine has two cores).
// Reports: reports/mutation/<scope>[-<folder>].json; the table reads the newest report of each
// file, so folders measured on different runs add up. A run over some lines of a folder
// (MUTATE=machines/x/x.machine.ts:12-14,…) writes <scope>-<folder>-part.json, which the table
// merges into the folder's whole run: the re-run lines take the new results, the others keep
// theirs (moved with the unchanged lines they sit on). The undetected mutants are listed in
// reports/mutation/survivors-<scope>.txt.
//
// Equivalent mutants, left out of the scores and counted apart: a placeholder emptied or its
// string mutated (an actor or action whose body throws '… not provided': the app and the tests
// always supply it with provide(), so the machines never run it, and its text is no rule of the
// spec); `types: { … }` of setup() emptied (TypeScript's only: no behaviour); and mutants the
// source marks with `// Stryker disable next-line <mutator>: <reason>`, the reason beside them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const scopes = (process.env.MUTATION_SCOPES || 'model,all').split(',').filter(Boolean);

const MUTATE = (process.env.MUTATE || 'machines/**/*.ts').split(',').filter(Boolean);
const ownTests = process.env.MUTATION_OWN_TESTS !== '0';

/** The machine folders MUTATE names (machines/<name>/…); every folder for a wider glob. */
function foldersOf(globs) {
  const all = readdirSync(join(ROOT, 'machines')).filter((name) =>
    statSync(join(ROOT, 'machines', name)).isDirectory(),
  );
  const named = globs.map((g) => /^machines\/([\w-]+)\//.exec(g)?.[1]);
  return named.every(Boolean) ? [...new Set(named)] : all;
}

/** A folder's own model tests, or null when it has none (then every model test runs). */
function ownModelTests(folder) {
  const files = readdirSync(join(ROOT, 'tests/model')).filter((f) =>
    new RegExp(`^${folder}\\.[\\w.]*test\\.tsx?$`).test(f),
  );
  if (files.length === 0) return null;
  return [...files.map((f) => `tests/model/${f}`), 'tests/model/every-machine-has-a-model.test.ts'];
}

/**
 * The unmutated code must pass the very tests a run uses, every file loading: Stryker counts
 * tests, not files, so a test file that fails to load would meet no mutant and every mutant
 * would "survive" without a word.
 */
function preflight(scope, env, label) {
  const result = spawnSync(
    'npx',
    ['vitest', 'run', '--config', 'tests/mutation/vitest.config.ts', '--reporter=dot'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MUTATION_TESTS: scope, ...env } },
  );
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    console.error(`test:mutation: the ${label} tests fail on the unmutated code; no mutation run`);
    process.exit(1);
  }
}

function stryker(scope, env, label) {
  preflight(scope, env, label);
  console.log(`\n== stryker run (tests: ${label})`);
  const result = spawnSync('npx', ['stryker', 'run', 'tests/mutation/stryker.config.mjs'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_TESTS: scope, ...env },
  });
  if (result.status !== 0) {
    console.error(`test:mutation: stryker failed for the ${label} tests (exit ${result.status})`);
    process.exit(1);
  }
}

if (process.env.REPORT_ONLY !== '1') {
  for (const scope of scopes) {
    if (scope !== 'model' || !ownTests) {
      stryker(scope, {}, scope);
      continue;
    }
    for (const folder of foldersOf(MUTATE)) {
      const own = ownModelTests(folder);
      const whole = `machines/${folder}/**/*.ts`;
      const named = MUTATE.filter((g) => g.startsWith(`machines/${folder}/`));
      const globs = named.length > 0 ? named.join(',') : whole;
      stryker(
        scope,
        {
          MUTATE: globs,
          MUTATION_TEST_FILES: own ? own.join(',') : '',
          // A run over part of a folder keeps its own report: the whole folder's stays intact.
          MUTATION_REPORT: globs === whole ? `model-${folder}` : `model-${folder}-part`,
        },
        own ? `model, ${folder}'s own` : 'model, all',
      );
    }
  }
}

const DETECTED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

/** The source text a mutant replaces. */
function sourceOf(lines, { start, end }) {
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join('\n');
}

/**
 * True when the text holds placeholders only: actor logic or actions whose body throws
 * "… not provided" (setup()'s stand-ins for what src/ and the tests provide).
 */
function onlyPlaceholders(text) {
  if (!/not provided/.test(text)) return false;
  const rest = text
    .replace(
      /from(?:Promise|Callback|Observable)(?:<[^>]*>)?\((?:async )?\(\) => \{\s*throw new Error\('[^']*not provided'\);?\s*\}\)/g,
      '',
    )
    .replace(/\(\) => \{\s*throw new Error\('[^']*not provided'\);?\s*\}/g, '')
    .replace(/\{\s*throw new Error\('[^']*not provided'\);?\s*\}/g, '');
  return !/=>|\bfunction\b|Machine\b|assign\(|sendTo\(/.test(rest);
}

/**
 * For each line of `before`, its line in `after` when the line is unchanged (a longest common
 * subsequence of the two texts' lines), 1-based.
 */
function lineMap(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const map = new Map();
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) map.set((i += 1), (j += 1));
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) i += 1;
    else j += 1;
  }
  return map;
}

/**
 * A run over some lines of a file (a `-part` report: MUTATE with line ranges) merged into the
 * file's earlier report: the lines the part run mutated take its results; every other line keeps
 * the earlier result, moved to where that line is now (an equivalent when the line has been
 * marked `Stryker disable` since). Lines that changed since and that the part run did not mutate
 * are left out (their code is not what was measured).
 */
function mergePart(earlier, part) {
  const covered = new Set(part.mutants.map((m) => m.location.start.line));
  const moved = lineMap(earlier.source, part.source);
  const lines = part.source.split('\n');
  // A line marked since with `// Stryker disable next-line <mutators>: <reason>`.
  const disabled = (line, mutator) => {
    const marked = /\/\/\s*Stryker disable next-line ([\w,]+)/.exec(lines[line - 2] ?? '');
    return marked !== null && marked[1].split(',').some((m) => m === 'all' || m === mutator);
  };
  const kept = [];
  for (const m of earlier.mutants) {
    const start = moved.get(m.location.start.line);
    const end = moved.get(m.location.end.line);
    if (start === undefined || end === undefined || covered.has(start)) continue;
    kept.push({
      ...m,
      status: disabled(start, m.mutatorName) ? 'Ignored' : m.status,
      location: {
        start: { ...m.location.start, line: start },
        end: { ...m.location.end, line: end },
      },
    });
  }
  return { ...part, mutants: [...kept, ...part.mutants] };
}

/** Per machine folder: detected and counted mutants, and equivalent ones set aside. */
function scores(scope) {
  // Every report of the scope, oldest first: a file measured again later takes the newer result.
  const dir = join(ROOT, 'reports/mutation');
  const reports = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f === `${scope}.json` || (f.startsWith(`${scope}-`) && f.endsWith('.json')))
        .map((f) => join(dir, f))
        .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    : [];
  if (reports.length === 0) return null;
  const files = {};
  for (const file of reports) {
    const part = file.endsWith('-part.json');
    for (const [path, entry] of Object.entries(JSON.parse(readFileSync(file, 'utf8')).files)) {
      const key = relative(ROOT, resolve(ROOT, path));
      files[key] = part && files[key] ? mergePart(files[key], entry) : entry;
    }
  }
  const rows = new Map();
  for (const [path, entry] of Object.entries(files)) {
    const rel = relative(ROOT, resolve(ROOT, path));
    const folder = rel.split('/').slice(0, 2).join('/');
    const row = rows.get(folder) ?? { detected: 0, counted: 0, equivalent: 0, survivors: [] };
    const lines = entry.source.split('\n');
    for (const m of entry.mutants) {
      // `// Stryker disable next-line <mutator>: <reason>` in the source: an equivalent mutant
      // whose reason is written beside the code.
      if (m.status === 'Ignored') {
        row.equivalent += 1;
        continue;
      }
      if (!COUNTED.has(m.status)) continue;
      const line = lines[m.location.start.line - 1] ?? '';
      const text = sourceOf(lines, m.location);
      const placeholder =
        (m.mutatorName === 'StringLiteral' && /throw new Error\(.*not provided/.test(line)) ||
        // Emptying a placeholder (or a set of placeholders) the app always replaces with provide().
        (['BlockStatement', 'ObjectLiteral'].includes(m.mutatorName) && onlyPlaceholders(text));
      // `setup({ types: { … } })` exists for TypeScript only: emptying it changes no behaviour.
      const typesOnly = m.mutatorName === 'ObjectLiteral' && /^\s*types: \{/.test(line);
      if (placeholder || typesOnly) {
        row.equivalent += 1;
        continue;
      }
      row.counted += 1;
      if (DETECTED.has(m.status)) row.detected += 1;
      else
        row.survivors.push(
          `${rel}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${line.trim().slice(0, 100)}  →  ${JSON.stringify(m.replacement ?? '').slice(0, 80)}`,
        );
    }
    rows.set(folder, row);
  }
  return rows;
}

const results = Object.fromEntries(scopes.map((s) => [s, scores(s)]));
const folders = [
  ...new Set(Object.values(results).flatMap((r) => (r ? [...r.keys()] : []))),
].sort();
const pct = (row) =>
  row && row.counted ? `${((100 * row.detected) / row.counted).toFixed(1)}%` : '—';
const cell = (row) => (row ? `${pct(row)} (${row.detected}/${row.counted})` : '—');
console.log('');
console.log(
  `${'machine folder'.padEnd(26)} ${'model only'.padEnd(22)} ${'all tests'.padEnd(22)} equivalent`,
);
const total = { model: { detected: 0, counted: 0 }, all: { detected: 0, counted: 0 } };
for (const folder of folders) {
  const model = results.model?.get(folder);
  const all = results.all?.get(folder);
  for (const [k, r] of [
    ['model', model],
    ['all', all],
  ]) {
    if (r) {
      total[k].detected += r.detected;
      total[k].counted += r.counted;
    }
  }
  const eq = (all ?? model)?.equivalent ?? 0;
  console.log(`${folder.padEnd(26)} ${cell(model).padEnd(22)} ${cell(all).padEnd(22)} ${eq}`);
}
console.log(
  `${'total'.padEnd(26)} ${cell(results.model && total.model).padEnd(22)} ${cell(results.all && total.all).padEnd(22)}`,
);

// The mutants no test detected, per scope, for the next test to write.
for (const scope of scopes) {
  const rows = results[scope];
  if (!rows) continue;
  const lines = [...rows.values()].flatMap((row) => row.survivors);
  const file = join(ROOT, 'reports/mutation', `survivors-${scope}.txt`);
  writeFileSync(file, lines.length ? `${lines.join('\n')}\n` : '');
  console.log(`${lines.length} undetected mutant(s) (${scope} tests): ${relative(ROOT, file)}`);
}
