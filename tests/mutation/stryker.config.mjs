// StrykerJS over machines/ (scripts/test-mutation.mjs runs it once per test scope).
const scope = process.env.MUTATION_TESTS === 'all' ? 'all' : 'model';
const mutate = (process.env.MUTATE || 'machines/**/*.ts').split(',').filter(Boolean).concat([
  // Types only, no behaviour: nothing to mutate but imports and type aliases.
  '!machines/**/*.d.ts',
]);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'tests/mutation/vitest.config.ts', related: true },
  mutate,
  ignoreStatic: true,
  concurrency: 1,
  coverageAnalysis: 'perTest',
  timeoutMS: 20_000,
  reporters: ['json', 'progress'],
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
