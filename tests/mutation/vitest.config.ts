import { defineConfig } from 'vitest/config';

/**
 * The Vitest setup that mutation testing runs (scripts/test-mutation.mjs): MUTATION_TESTS=model
 * runs the model project alone (or, with MUTATION_TEST_FILES, one machine's model tests),
 * MUTATION_TESTS=all the model and unit tests. The server's tests
 * are left out: the server imports nothing from machines/, so they cannot kill a machine mutant.
 */
const scope = process.env.MUTATION_TESTS === 'all' ? 'all' : 'model';
// MUTATION_TEST_FILES narrows the model tests to one machine's own (test-mutation.mjs sets it).
const own = (process.env.MUTATION_TEST_FILES ?? '').split(',').filter(Boolean);
const include = own.length > 0 ? own : ['tests/model/**/*.test.{ts,tsx}'];
if (scope === 'all') include.push('tests/unit/**/*.test.{ts,tsx}');

export default defineConfig({
  test: {
    include,
    exclude: ['tests/unit/server/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 20_000,
  },
});
