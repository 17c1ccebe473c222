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
  concurrency: Number(process.env.MUTATION_CONCURRENCY || 1),
  // Off on purpose. A machine's chart is built when its module loads: nearly every mutant of a
  // chart is "static". With per-test coverage the vitest runner switches a mutant on after that
  // import, so the mutated chart is never the one tested and the mutant counts as survived
  // (stryker-js issues 6144 and 6209); ignoring static mutants instead would leave the charts out
  // of the score. Off, each mutant is on from the first import and meets every test of the scope.
  coverageAnalysis: 'off',
  timeoutMS: 20_000,
  reporters: ['json', 'progress'],
  jsonReporter: { fileName: `reports/mutation/${process.env.MUTATION_REPORT || scope}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
