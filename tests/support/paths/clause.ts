import { expect } from 'vitest';
import { clauseLabel, type ClauseId } from '../clauses';

/**
 * Assertions tagged with the clause they check: `specExpect('§4.access.flag', hasAccess, 'the
 * access flag').toBe(true)`. A failure of it names the clause first (the path runner reads the
 * `[§…]` tag from the message), and tests/support/clauseCoverage.ts counts it as a check of the clause.
 */
export function specExpect<T>(clause: ClauseId, actual: T, what: string) {
  return expect(actual, `[${clause}] ${what}`);
}

const TAG = /\[((?:§\d+|reading)\.[A-Za-z0-9.]+)\]/;

/** The clause id a failure carries: its `clause` field or a `[§…]` tag in its message. */
export function clauseOfError(error: unknown): string | undefined {
  const e = error as { clause?: unknown; message?: unknown };
  if (typeof e?.clause === 'string') return e.clause;
  return typeof e?.message === 'string' ? TAG.exec(e.message)?.[1] : undefined;
}

/** An assertion message without its clause tag: `[§4.access.flag] the access flag` → `the access flag`. */
export function withoutTag(text: string): string {
  return text.replace(TAG, '').trim();
}

/** An error naming its clause, with expected and actual in the spec's words. */
export function clauseError(
  clause: string | undefined,
  message: string,
  expected: string,
  actual: string,
): Error {
  return Object.assign(new Error(clause ? `[${clause}] ${message}` : message), {
    clause,
    expected,
    actual,
    inWords: true,
    clauseTitle: clause ? clauseLabel(clause) : undefined,
  });
}
