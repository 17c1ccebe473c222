import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, SnapshotFrom } from 'xstate';
import { settle } from './fakes';
import {
  coverageProblems,
  stateValueToString,
  type GeneratedPath,
  type ModelEvent,
  type OutcomeType,
  type PathModel,
} from './model';

/**
 * Runs a model's generated paths as Vitest tests (one test per path, named by its description)
 * against a driver: per event type an executor that makes the event happen for real, per state
 * key a check. Writes reports/paths/<machine>.json for `npm run test:paths`.
 */

export type ExecutorArgs<Ctx, E, S> = {
  ctx: Ctx;
  event: E;
  /** The snapshot the model expects after this event. */
  snapshot: S;
};
export type Executor<Ctx, E, S> = (args: ExecutorArgs<Ctx, E, S>) => void | Promise<void>;

/** One executor per event type of the model: a missing one is a compile error. */
export type Executors<Model extends PathModel<AnyStateMachine, OutcomeType>, Ctx> =
  Model extends PathModel<infer M, infer O>
    ? {
        [K in ModelEvent<M, O>['type']]: Executor<
          Ctx,
          Extract<ModelEvent<M, O>, { type: K }>,
          SnapshotFrom<M>
        >;
      }
    : never;

/** An executor for any event of the model, e.g. one `send` shared by every intent. */
export type AnyExecutor<Model extends PathModel<AnyStateMachine, OutcomeType>, Ctx> =
  Model extends PathModel<infer M, infer O>
    ? Executor<Ctx, ModelEvent<M, O>, SnapshotFrom<M>>
    : never;

export type StateCheck<Ctx, S> = (args: { ctx: Ctx; snapshot: S }) => void | Promise<void>;

export type Driver<Model extends PathModel<AnyStateMachine, OutcomeType>, Ctx> = {
  /** Builds the system under test for one path (actor with controllable fakes, rendered view). */
  /** Builds the system under test; `input` is the machine input the path starts from. */
  setup: (path: { input: unknown }) => Ctx | Promise<Ctx>;
  teardown?: (ctx: Ctx) => void | Promise<void>;
  events: Executors<Model, Ctx>;
  /** Checks keyed by state (matched with `snapshot.matches(key)`); '*' runs when none matched. */
  states?: Record<string, StateCheck<Ctx, SnapshotFrom<Model['machine']>>>;
  /** The live snapshot; when given, its value must equal the expected value after every step. */
  actual?: (ctx: Ctx) => AnyMachineSnapshot;
  /** Vitest fake timers around each path (default true). */
  fakeTimers?: boolean;
};

type PathResult = {
  description: string;
  driver: string;
  status: 'passed' | 'failed';
  error?: string;
};
type Registry = { model: PathModel<AnyStateMachine, OutcomeType>; results: PathResult[] };
const registry = new Map<string, Registry>();

export const PATHS_REPORT_DIR = resolve(import.meta.dirname, '../../../reports/paths');

function writeReport(entry: Registry): void {
  const { model, results } = entry;
  const c = model.coverage;
  mkdirSync(PATHS_REPORT_DIR, { recursive: true });
  const report = {
    machine: model.name,
    paths: {
      generated: model.paths.length,
      passed: results.filter((r) => r.status === 'passed').length,
      failed: results.filter((r) => r.status === 'failed').length,
      results,
    },
    states: {
      total: c.states.total,
      covered: c.states.covered.length,
      uncovered: c.states.uncovered,
    },
    transitions: {
      total: c.transitions.total,
      covered: c.transitions.covered.length,
      uncovered: c.transitions.uncovered,
      all: model.transitions.map((t) => t.key),
    },
    staleReasons: c.staleReasons,
    unknownReasons: c.unknownReasons,
    untakenEvents: c.untakenEvents,
    problems: coverageProblems(model),
  };
  writeFileSync(join(PATHS_REPORT_DIR, `${model.name}.json`), JSON.stringify(report, null, 2));
}

async function runChecks<Ctx, S extends AnyMachineSnapshot>(
  ctx: Ctx,
  snapshot: S,
  states: Record<string, StateCheck<Ctx, S>>,
  actual: ((ctx: Ctx) => AnyMachineSnapshot) | undefined,
  where: string,
): Promise<void> {
  if (actual) {
    expect(
      stateValueToString(actual(ctx).value),
      `${where}: the actor should be in ${stateValueToString(snapshot.value)}`,
    ).toBe(stateValueToString(snapshot.value));
  }
  const keys = Object.keys(states).filter((k) => k !== '*' && snapshot.matches(k as never));
  if (keys.length === 0 && states['*']) keys.push('*');
  for (const key of keys) await states[key]!({ ctx, snapshot });
}

async function runPath<M extends AnyStateMachine, O extends OutcomeType, Ctx>(
  path: GeneratedPath<M, O>,
  driver: Driver<PathModel<M, O>, Ctx>,
): Promise<void> {
  const useFake = driver.fakeTimers !== false;
  if (useFake) vi.useFakeTimers();
  let ctx: Ctx | undefined;
  try {
    ctx = await driver.setup({ input: path.input });
    await settle();
    const states = (driver.states ?? {}) as Record<string, StateCheck<Ctx, SnapshotFrom<M>>>;
    await runChecks(ctx, path.initial, states, driver.actual, 'at start');
    const executors = driver.events as unknown as Record<
      string,
      Executor<Ctx, ModelEvent<M, O>, SnapshotFrom<M>>
    >;
    for (const [index, step] of path.steps.entries()) {
      const exec = executors[step.event.type];
      if (!exec) throw new Error(`no executor for ${step.event.type}`);
      await exec({ ctx, event: step.event, snapshot: step.snapshot });
      await settle();
      await runChecks(
        ctx,
        step.snapshot,
        states,
        driver.actual,
        `after step ${index + 1} (${step.label})`,
      );
    }
  } finally {
    if (ctx !== undefined) await driver.teardown?.(ctx);
    if (useFake) vi.useRealTimers();
  }
}

/**
 * Registers one Vitest test per generated path (named by its description) plus a coverage test
 * (100% of states and transitions, or a written reason per gap). `label` names the driver when a
 * model runs against more than one (e.g. 'actor' and 'view').
 */
export function testPaths<M extends AnyStateMachine, O extends OutcomeType, Ctx>(
  model: PathModel<M, O>,
  driver: Driver<PathModel<M, O>, Ctx>,
  label = 'actor',
): void {
  const first = !registry.has(model.name);
  const entry: Registry = registry.get(model.name) ?? {
    model: model as unknown as PathModel<AnyStateMachine, OutcomeType>,
    results: [],
  };
  registry.set(model.name, entry);

  describe(`${model.name} paths (${label})`, () => {
    for (const path of model.paths) {
      it(path.description, async () => {
        try {
          await runPath(path, driver);
          entry.results.push({ description: path.description, driver: label, status: 'passed' });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          entry.results.push({
            description: path.description,
            driver: label,
            status: 'failed',
            error: message,
          });
          throw new Error(`path: ${path.description}\n${message}`, { cause: error });
        }
      });
    }
    if (first) {
      it(`${model.name} coverage: every state and transition, or a written reason`, () => {
        const problems = coverageProblems(model);
        expect(problems, problems.join('\n')).toEqual([]);
      });
    }
    afterAll(() => writeReport(entry));
  });
}
