export { defineModel, coverageProblems } from './model';
export type { GeneratedPath, OutcomeType, PathModel, SpecTransition } from './model';
export { failureHeadline, runPath, StepError, testPaths, PATHS_REPORT_DIR } from './run';
export { specExpect } from './clause';
export type { AnyExecutor, Driver, Executors } from './run';
export {
  actorProbe,
  advanceChartDelay,
  advanceExactly,
  advanceSpecDelay,
  controllable,
  delayOf,
  settle,
} from './fakes';
export type { Controllable } from './fakes';
export { assertProperty, checkModelProperty, checkProperty, propertyRuns } from './property';
export type { PropertySpec } from './property';
export { actorDriver, systemDriver, withView } from './actorDriver';
export { testSpecScenarios, withSpecRecord } from './specRecord';
export type { SpecRecord } from './specRecord';
