import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CLAUSES, ORACLE_CLAUSES, type Clause } from './clauses';
import { SPEC_TRANSITIONS } from './specTransitions';

/**
 * Which checks assert each clause of the registry, read from the test sources:
 * - the spec transitions that name it (every model's coverage test requires a path to walk them);
 * - the oracle entries linked to it (ORACLE_CLAUSES), where a test compares against them;
 * - the clause id itself in a test (a tagged assertion `specExpect('§5.email', …)`, a driver's
 *   `clauses`, or an e2e test's title or annotation).
 * Browser tests (tests/e2e) are listed apart: they show the clause in a browser.
 */

const ROOT = resolve(import.meta.dirname, '../..');

type ClauseCheck = { kind: 'transition' | 'oracle' | 'tagged'; file: string; what: string };
type ClauseE2e = { file: string; title: string };
export type ClauseRow = Clause & { checks: ClauseCheck[]; e2e: ClauseE2e[] };

/** The files the registry and oracle live in, which name clauses without checking them. */
const NOT_CHECKS = new Set([
  'tests/support/clauses.ts',
  'tests/support/clauseCoverage.ts',
  'tests/support/oracle.ts',
  'tests/support/specTransitions.ts',
  'tests/model/clauses.test.ts',
  'tests/model/clauses.harness.test.ts',
]);

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => relative(ROOT, join(ROOT, dir, f)))
    .filter((file) => !NOT_CHECKS.has(file))
    .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A reference to the oracle entry `NAME.key` (or the export `NAME` itself). */
function oraclePattern(key: string): RegExp {
  const [name, field] = key.split('.');
  return field === undefined
    ? new RegExp(`\\b${escape(name!)}\\b`)
    : new RegExp(
        `\\b${escape(name!)}\\.${escape(field)}\\b|\\{[^}]*\\b${escape(field)}\\b[^}]*\\}\\s*=\\s*${escape(name!)}\\b`,
      );
}

/** The title of the test around `index` (the last `test(` / `it(` title ending before the line does). */
function titleAt(text: string, index: number): string {
  // Up to the end of the line: a tag inside a title belongs to that title.
  const end = text.indexOf('\n', index);
  const before = text.slice(0, end === -1 ? text.length : end);
  const matches = [...before.matchAll(/\b(?:test|it)(?:\.describe)?\(\s*(['"`])((?:(?!\1).)*)\1/g)];
  return matches.at(-1)?.[2] ?? '(file)';
}

export function clauseRows(): ClauseRow[] {
  const checks = new Map<string, ClauseCheck[]>(CLAUSES.map((c) => [c.id, []]));
  const e2e = new Map<string, ClauseE2e[]>(CLAUSES.map((c) => [c.id, []]));
  const tests = [...sources('tests/model'), ...sources('tests/unit'), ...sources('tests/support')];
  const browser = sources('tests/e2e');

  for (const [machine, list] of Object.entries(SPEC_TRANSITIONS))
    for (const r of list)
      checks.get(r.clause)?.push({
        kind: 'transition',
        file: `tests/model/${machine}.paths.test`,
        what: `${r.from} ─${r.event}→ ${r.to}`,
      });

  for (const [key, id] of Object.entries(ORACLE_CLAUSES)) {
    const pattern = oraclePattern(key);
    for (const { file, text } of tests)
      if (pattern.test(text)) checks.get(id)?.push({ kind: 'oracle', file, what: key });
    for (const { file, text } of browser) {
      const at = text.search(pattern);
      if (at >= 0) e2e.get(id)?.push({ file, title: `${titleAt(text, at)} (${key})` });
    }
  }

  for (const clause of CLAUSES) {
    const literal = new RegExp(`['"\`]${escape(clause.id)}['"\`]|\\[${escape(clause.id)}\\]`, 'g');
    for (const { file, text } of tests)
      if (literal.test(text))
        checks.get(clause.id)?.push({ kind: 'tagged', file, what: clause.id });
    for (const { file, text } of browser)
      for (const m of text.matchAll(literal))
        e2e.get(clause.id)?.push({ file, title: titleAt(text, m.index) });
  }

  return CLAUSES.map((clause) => ({
    ...clause,
    checks: checks.get(clause.id) ?? [],
    e2e: e2e.get(clause.id) ?? [],
  }));
}
