import { defineConfig } from 'vitest/config';
import { calendarFromEnv } from '../../contract/calendar';

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

// The build time the site's dated texts start from, as vite.config.ts defines it for every other
// run: without it a test file that renders a view fails to load and meets no mutant.
process.env.SMW_BUILT_AT ??= String(Date.now());

export default defineConfig({
  define: {
    __SMW_BUILT_AT__: JSON.stringify(Number(process.env.SMW_BUILT_AT)),
    __SMW_CALENDAR__: JSON.stringify(calendarFromEnv(process.env)),
  },
  test: {
    include,
    exclude: ['tests/unit/server/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 20_000,
  },
});
