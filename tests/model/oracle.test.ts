import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import {
  SPEC_INSTANTS,
  SPEC_LAMPORTS,
  SPEC_LIMITS,
  SPEC_TIMERS,
  specBackoff,
} from '../support/oracle';

const source = readFileSync(resolve(import.meta.dirname, '../support/oracle.ts'), 'utf8');

it('the spec oracle imports nothing: its numbers and texts are written from the spec', () => {
  expect(source).not.toMatch(/^\s*import\s/m);
  expect(source).not.toMatch(/\bfrom\s+['"]/);
  expect(source).not.toMatch(/\brequire\(/);
});

it('the oracle reads as the spec does (§4, §9)', () => {
  expect(SPEC_TIMERS.notification).toBe(3500);
  expect(SPEC_TIMERS.cancelNotice).toBe(5000);
  expect([1, 2, 3, 4, 5, 6].map(specBackoff)).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
  expect(SPEC_LIMITS.ticketPricesSol.map((sol) => SPEC_LAMPORTS[sol])).toEqual([
    220_000_000, 330_000_000, 550_000_000,
  ]);
});

it('every property test runs through the helper that prints and replays its seed', () => {
  const root = resolve(import.meta.dirname, '..');
  const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(test|spec)\.tsx?$/.test(file))
    .filter((file) => /\bfc\.(assert|check)\(/.test(readFileSync(join(root, file), 'utf8')));
  expect(offenders, 'use assertProperty / checkProperty from tests/support/paths').toEqual([]);
});

it('the spec instants are read with their zone, in any time zone the tests run in [§1.launch.date]', () => {
  expect(Date.parse(SPEC_INSTANTS.launchAt)).toBe(SPEC_LIMITS.launchAt);
  expect(Date.parse(SPEC_INSTANTS.earlyBirdEnd)).toBe(SPEC_LIMITS.earlyBirdEnd);
  expect(new Date(SPEC_LIMITS.launchAt).toISOString()).toBe('2025-12-20T00:00:00.000Z');
});

it('no test parses a date-time without its zone (it would read local time) [§1.launch.date]', () => {
  const root = resolve(import.meta.dirname, '..');
  // A quoted ISO date-time that ends without Z or an offset, such as 2025-12-20T00:00:00 in quotes.
  const zoneless = /['"`]\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?['"`]/;
  const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file))
    .filter((file) => zoneless.test(readFileSync(join(root, file), 'utf8')));
  expect(offenders, 'write the zone (Z or ±hh:mm) of every instant').toEqual([]);
});
