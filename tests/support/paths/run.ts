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
  /** Checks keyed by state (matched with `snapshot.matches(key)`); '*' runs in every state. */
  states?: Record<string, StateCheck<Ctx, SnapshotFrom<Model['machine']>>>;
  /** The live snapshot; when given, its value must equal the expected value after every step. */
  actual?: (ctx: Ctx) => AnyMachineSnapshot;
  /** Vitest fake timers around each path (default true). */
  fakeTimers?: boolean;
};

/** Where and how a path failed, in the words QA read: the step, the check, expected/actual. */
export type PathFailure = {
  /** 1-based step index (0 = at start). */
  step: number;
  /** The step as printed in the path: `state ─event→ state` (or "at start"). */
  transition: string;
  /** The event or delay of the step. */
  event: string;
  /** Its type (groups failures across payload variants). */
  eventType: string;
  /** What failed: the executor of the event, or the check of a state key. */
  check: string;
  expected?: string;
  actual?: string;
  message: string;
  stack?: string;
};

type PathResult = {
  description: string;
  driver: string;
  status: 'passed' | 'failed';
  error?: string;
  failure?: PathFailure;
};

class StepError extends Error {
  constructor(
    readonly failure: PathFailure,
    options: { cause: unknown },
  ) {
    super(failure.message, options);
  }
}

const show = (v: unknown): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
};

function describeFailure(
  error: unknown,
  where: Omit<PathFailure, 'expected' | 'actual' | 'message' | 'stack'>,
): PathFailure {
  const e = error as { message?: unknown; expected?: unknown; actual?: unknown; stack?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return {
    ...where,
    message: message.split('\n')[0] ?? message,
    expected: show(e?.expected),
    actual: show(e?.actual),
    stack: typeof e?.stack === 'string' ? e.stack : undefined,
  };
}

export function formatFailure(f: PathFailure): string {
  return [
    `failed at ${f.step === 0 ? 'the start' : `step ${f.step}`}: ${f.transition}`,
    `  event: ${f.event}`,
    `  check: ${f.check}`,
    `  ${f.message}`,
    ...(f.expected !== undefined ? [`  expected: ${f.expected}`] : []),
    ...(f.actual !== undefined ? [`  actual:   ${f.actual}`] : []),
  ].join('\n');
}
type Registry = { model: PathModel<AnyStateMachine, OutcomeType>; results: PathResult[] };
const registry = new Map<string, Registry>();

export const PATHS_REPORT_DIR = resolve(import.meta.dirname, '../../../reports/paths');

/** Failures grouped by the first failing transition and check: one group, N paths. */
export function groupFailures(results: PathResult[]): {
  key: string;
  driver: string;
  transition: string;
  check: string;
  expected?: string;
  actual?: string;
  message: string;
  stack?: string;
  paths: string[];
}[] {
  const groups = new Map<string, ReturnType<typeof groupFailures>[number]>();
  for (const r of results) {
    if (r.status !== 'failed') continue;
    const f = r.failure;
    // The same broken rule seen through different payloads or other regions' states is one group.
    const key = f
      ? `${r.driver} · ${f.eventType} · ${f.check} · ${f.message.replace(/\s*\([^)]*\)$/, '')}`
      : `${r.driver} · ${r.error ?? ''}`;
    const group = groups.get(key) ?? {
      key,
      driver: r.driver,
      transition: f?.transition ?? '(unknown step)',
      check: f?.check ?? '',
      expected: f?.expected,
      actual: f?.actual,
      message: f?.message ?? r.error ?? '',
      stack: f?.stack,
      paths: [],
    };
    group.paths.push(r.description);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.paths.length - a.paths.length);
}

function printGroups(machine: string, driver: string, results: PathResult[]): void {
  const groups = groupFailures(results.filter((r) => r.driver === driver));
  if (groups.length === 0) return;
  const failed = groups.reduce((n, g) => n + g.paths.length, 0);
  const lines = [`\n${machine} (${driver}): ${failed} failed path(s) in ${groups.length} group(s)`];
  for (const g of groups) {
    lines.push(`  ✗ ${g.transition}  — ${g.paths.length} path(s) fail here first`);
    lines.push(`      check: ${g.check}`);
    lines.push(`      ${g.message}`);
    if (g.expected !== undefined) lines.push(`      expected: ${g.expected}`);
    if (g.actual !== undefined) lines.push(`      actual:   ${g.actual}`);
    const at = g.stack
      ?.split('\n')
      .find(
        (l) =>
          /tests\/(model|unit)\//.test(l) ||
          (/tests\/support\//.test(l) && !/tests\/support\/paths\//.test(l)) ||
          /machines\//.test(l),
      );
    if (at) lines.push(`      at ${at.trim().replace(/^at /, '')}`);
    lines.push(`      e.g. ${g.paths[0]}`);
  }
  console.log(lines.join('\n'));
}

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
    unwalkedRequired: c.unwalkedRequired,
    problems: [
      ...(model.generation.error ? [model.generation.error] : []),
      ...coverageProblems(model),
    ],
    generation: model.generation,
    groups: groupFailures(results),
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
  const checking = (name: string, fn: () => void | Promise<void>) =>
    Promise.resolve()
      .then(fn)
      .catch((error: unknown) => {
        throw Object.assign(error instanceof Error ? error : new Error(String(error)), {
          pathCheck: name,
        });
      });
  if (actual) {
    await checking('the actor is in the expected state', () => {
      expect(
        stateValueToString(actual(ctx).value),
        `${where}: the actor should be in ${stateValueToString(snapshot.value)}`,
      ).toBe(stateValueToString(snapshot.value));
    });
  }
  // '*' runs in every state, then each check whose key the state matches.
  const keys = Object.keys(states).filter((k) => k !== '*' && snapshot.matches(k as never));
  if (states['*']) keys.unshift('*');
  for (const key of keys)
    await checking(`state check '${key}'`, () => states[key]!({ ctx, snapshot }));
}

async function runPath<M extends AnyStateMachine, O extends OutcomeType, Ctx>(
  path: GeneratedPath<M, O>,
  driver: Driver<PathModel<M, O>, Ctx>,
): Promise<void> {
  const useFake = driver.fakeTimers !== false;
  if (useFake) vi.useFakeTimers();
  let ctx: Ctx | undefined;
  try {
    const startValue = stateValueToString((path.initial as AnyMachineSnapshot).value);
    let where: Omit<PathFailure, 'expected' | 'actual' | 'message' | 'stack'> = {
      step: 0,
      transition: `at start (${startValue})`,
      event: 'setup',
      eventType: 'setup',
      check: 'setup',
    };
    try {
      ctx = await driver.setup({ input: path.input });
      await settle();
      const states = (driver.states ?? {}) as Record<string, StateCheck<Ctx, SnapshotFrom<M>>>;
      where = { ...where, check: 'state checks' };
      await runChecks(ctx, path.initial, states, driver.actual, 'at start');
      const executors = driver.events as unknown as Record<
        string,
        Executor<Ctx, ModelEvent<M, O>, SnapshotFrom<M>>
      >;
      let before = startValue;
      for (const [index, step] of path.steps.entries()) {
        const after = stateValueToString((step.snapshot as AnyMachineSnapshot).value);
        const kind = step.event.type.startsWith('xstate.after.') ? 'delay' : 'event';
        where = {
          step: index + 1,
          transition: `${before} ─${step.label}→ ${after}`,
          event: `${kind} ${step.label}`,
          eventType: step.event.type,
          check: `the executor of ${step.event.type}`,
        };
        const exec = executors[step.event.type];
        if (!exec) throw new Error(`no executor for ${step.event.type}`);
        await exec({ ctx, event: step.event, snapshot: step.snapshot });
        await settle();
        where = { ...where, check: 'state checks' };
        await runChecks(
          ctx,
          step.snapshot,
          states,
          driver.actual,
          `after step ${index + 1} (${step.label})`,
        );
        before = after;
      }
    } catch (error) {
      const check = (error as { pathCheck?: unknown })?.pathCheck;
      const failure = describeFailure(error, {
        ...where,
        check: typeof check === 'string' ? check : where.check,
      });
      throw new StepError(failure, { cause: error });
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
          const failure = error instanceof StepError ? error.failure : undefined;
          const message = failure
            ? formatFailure(failure)
            : error instanceof Error
              ? error.message
              : String(error);
          entry.results.push({
            description: path.description,
            driver: label,
            status: 'failed',
            error: message,
            ...(failure ? { failure } : {}),
          });
          // The original error (with its own stack, pointing at the check) is the cause.
          const original = error instanceof StepError ? error.cause : error;
          const wrapped = new Error(`path: ${path.description}\n${message}`, { cause: original });
          if (original instanceof Error && original.stack)
            wrapped.stack = `${wrapped.message}\n${original.stack.split('\n').slice(1).join('\n')}`;
          throw wrapped;
        }
      });
    }
    if (model.generation.error) {
      it(`${model.name}: ${model.generation.error}`, () => {
        expect.fail(`${model.name}: ${model.generation.error}`);
      });
    }
    if (first) {
      it(`${model.name} coverage: every state and transition, or a written reason`, () => {
        const problems = coverageProblems(model);
        expect(problems, problems.join('\n')).toEqual([]);
      });
    }
    afterAll(() => {
      writeReport(entry);
      printGroups(model.name, label, entry.results);
    });
  });
}
