import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { clauseRows } from '../support/clauseCoverage';
import { CLAUSE_BY_ID, CLAUSES, DELAY_CLAUSES, ORACLE_CLAUSES } from '../support/clauses';
import * as oracle from '../support/oracle';
import { PATHS_REPORT_DIR } from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/** Oracle exports that are the product's own readings or plumbing, not a clause of the spec. */
const ORACLE_NOT_SPEC = new Set([
  'LIVE_UPDATE_WITHIN_MS',
  'README_DATED_TEXTS',
  'SITE_SOLUTIONS',
  'SITE_MESSAGES',
  'SPEC_DELAY_BY_NAME',
  'specDelay',
]);

it('every clause id is unique and reads §<section>.<area>…', () => {
  const ids = CLAUSES.map((c) => c.id);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(ids.filter((id) => !/^(§\d+|reading)\.[a-zA-Z]+/.test(id))).toEqual([]);
});

it('every oracle entry names its clause (ORACLE_CLAUSES), and every link names a clause', () => {
  const keys = Object.entries(oracle)
    .filter(([name]) => !ORACLE_NOT_SPEC.has(name))
    .flatMap(([name, value]) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      name !== 'SPEC_LAMPORTS' &&
      name !== 'SPEC_THEME' &&
      !name.endsWith('_EDGES')
        ? Object.keys(value).map((key) => `${name}.${key}`)
        : [name],
    );
  expect(
    keys.filter((key) => !(key in ORACLE_CLAUSES)),
    'oracle entries without a clause',
  ).toEqual([]);
  expect(
    Object.entries({ ...ORACLE_CLAUSES, ...DELAY_CLAUSES }).filter(
      ([, id]) => !CLAUSE_BY_ID.has(id),
    ),
  ).toEqual([]);
});

it('every spec transition names a clause of the registry', () => {
  const unknown = Object.values(SPEC_TRANSITIONS)
    .flat()
    .filter((r) => !CLAUSE_BY_ID.has(r.clause));
  expect(unknown).toEqual([]);
});

it('every clause the registry marks testable has a check (the others give their reason)', () => {
  const rows = clauseRows();
  mkdirSync(PATHS_REPORT_DIR, { recursive: true });
  writeFileSync(join(PATHS_REPORT_DIR, 'clauses.json'), JSON.stringify(rows, null, 2));
  const unchecked = rows.filter((r) => r.testable && r.checks.length === 0 && r.e2e.length === 0);
  expect(
    unchecked.map((r) => `${r.id} (${r.title})`),
    'testable clauses with no check: tag a check with the clause id or mark it not testable with a reason',
  ).toEqual([]);
});
