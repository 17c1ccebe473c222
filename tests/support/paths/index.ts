export { defineModel, coverageProblems, stateValueToString, serializeModelState } from './model';
export type {
  Coverage,
  EventVariants,
  GeneratedPath,
  ModelEvent,
  ModelSpec,
  OutcomeType,
  OutcomeVariants,
  PathModel,
  SpecTransition,
} from './model';
export {
  failureHeadline,
  formatFailure,
  runPath,
  StepError,
  testPaths,
  PATHS_REPORT_DIR,
} from './run';
export { clauseOfError, specExpect } from './clause';
export type {
  AnyExecutor,
  Driver,
  Executor,
  ExecutorArgs,
  Executors,
  PathFailure,
  StateCheck,
} from './run';
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
export {
  assertProperty,
  checkModelProperty,
  checkProperty,
  propertyRuns,
  propertySeed,
} from './property';
export type { InvariantArgs, PropertySpec } from './property';
export { actorDriver, systemDriver, withView } from './actorDriver';
export type { ActorCtx } from './actorDriver';
export { recordOf, testSpecScenarios, withSpecRecord } from './specRecord';
export type { SpecRecord, SpecScenario } from './specRecord';
