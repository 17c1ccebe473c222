import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, SnapshotFrom } from 'xstate';
import { clauseLabel } from '../clauses';
import { specDelay } from '../oracle';
import { clauseOfError, withoutTag } from './clause';
import { delayOf, settle } from './fakes';
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

type ExecutorArgs<Ctx, E, S> = {
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
  /**
   * The clauses (tests/support/clauses.ts) each state check asserts, by the same keys as
   * `states`: a failing check names them, and the clause view lists the check under each.
   */
  clauses?: Record<string, readonly string[]>;
};

/** Where and how a path failed, in the words QA read: the step, the check, expected/actual. */
export type PathFailure = {
  /** 1-based step index (0 = at start). */
  step: number;
  /** `step 5 of 9: after resendTick (+1000 ms)`. */
  stepText: string;
  /** The clause the failure breaks, `§4.signin.resendTimer (…title…)`, or what is known of it. */
  clause: string;
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
  /** Where two long values first differ: `at [0].userData.user_access: expected 1, actual 0`. */
  diff?: string;
  message: string;
  stack?: string;
};

type PathResult = {
  description: string;
  driver: string;
  status: 'passed' | 'failed';
  error?: string;
  failure?: PathFailure;
  /** Clause ids the path walks (spec transitions, spec timers) and its checks assert. */
  clauses: string[];
};

export class StepError extends Error {
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

type Where = Omit<PathFailure, 'expected' | 'actual' | 'message' | 'stack' | 'clause'>;

/** What the assertion said it checked: `[§…] resend label: expected …` → `resend label`. */
function checkedWhat(message: string): string | undefined {
  const what = /^([^\n]*?): expected /.exec(message)?.[1];
  return what === undefined ? undefined : withoutTag(what);
}

function describeFailure(error: unknown, where: Where, clause: string): PathFailure {
  const e = error as {
    message?: unknown;
    expected?: unknown;
    actual?: unknown;
    stack?: unknown;
    inWords?: unknown;
  };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  // Values an assertion compared are quoted (a text's edges show); words written for QA are not.
  const value = (v: unknown) => (e?.inWords !== true && typeof v === 'string' ? `'${v}'` : show(v));
  const first = withoutTag(message.split('\n')[0] ?? message);
  // A comparison other than equality keeps its words: "greater than 0", not "0".
  const relation =
    /\bexpected .+? ((?:not )?to (?:not )?(?:be (?:greater|less) than(?: or equal to)?|be above|be below|be at least|be at most|contain|include|have (?:a )?length(?: of)?|match|be an instance of))\b/.exec(
      first,
    )?.[1];
  const expected = value(e?.expected);
  const actual = value(e?.actual);
  const long = (expected?.length ?? 0) > 60 || (actual?.length ?? 0) > 60;
  const objects = [e?.expected, e?.actual].every((v) => typeof v === 'object' && v !== null);
  const diff = !relation && long && objects ? firstDifference(e?.expected, e?.actual) : undefined;
  return {
    ...where,
    clause,
    message: first,
    expected: relation && expected !== undefined ? `${relation} ${expected}` : expected,
    actual,
    ...(diff ? { diff } : {}),
    stack: typeof e?.stack === 'string' ? e.stack : undefined,
  };
}

/** The first place two values differ, as a path into them (null when they do not). */
function firstDifference(
  expected: unknown,
  actual: unknown,
  at = '',
  depth = 0,
): string | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null;
  // Plain data only, and not too deep: an actor ref (with its system) is compared as a whole.
  const plain = (v: Record<string, unknown>) =>
    Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype;
  if (
    depth < 8 &&
    isObject(expected) &&
    isObject(actual) &&
    plain(expected) &&
    plain(actual) &&
    Array.isArray(expected) === Array.isArray(actual)
  ) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    if (Array.isArray(expected) && expected.length !== (actual as unknown as unknown[]).length) {
      const length = `${at ? `at ${at}: ` : ''}expected ${expected.length} item(s), actual ${(actual as unknown as unknown[]).length}`;
      for (const key of keys) {
        const inner = firstDifference(
          expected[Number(key)],
          actual[key],
          `${at}[${key}]`,
          depth + 1,
        );
        if (inner) return `${length}; first ${inner}`;
      }
      return length;
    }
    for (const key of keys) {
      const path = Array.isArray(expected) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
      const inner = firstDifference(expected[key], actual[key], path, depth + 1);
      if (inner) return inner;
    }
    return undefined;
  }
  if (Object.is(expected, actual)) return undefined;
  const brief = (v: unknown) => {
    const text = typeof v === 'string' ? `'${v}'` : (show(v) ?? 'nothing');
    return text.length > 50 ? `${text.slice(0, 49)}…` : text;
  };
  return `at ${at || 'the value'}: expected ${brief(expected)}, actual ${brief(actual)}`;
}

/**
 * The first line of a failure: the clause, the step, expected and actual, in full (never cut).
 * `§2.signin.resendLabel (…) — step 5 of 9: after resendTick (+1000 ms) — resend label:
 * expected 'Resend in 30s', actual 'Resend in 29s'`.
 */
export function failureHeadline(f: PathFailure): string {
  const what = checkedWhat(f.message);
  const cut = (v: string | undefined, max: number) =>
    v !== undefined && v.length > max ? `${v.slice(0, max - 1)}…` : v;
  const values = (max: number) =>
    f.diff
      ? `${what ? `${what}: ` : ''}${f.diff}`
      : f.expected !== undefined || f.actual !== undefined
        ? `${what ? `${what}: ` : ''}expected ${cut(f.expected, max) ?? '(nothing)'}, actual ${cut(f.actual, max) ?? '(nothing)'}`
        : (cut(f.message, max * 2) ?? '');
  const full = `${f.clause} — ${f.stepText} — ${values(Infinity)}`;
  if (full.length < HEADLINE_MAX) return full;
  // Too long for one line: long values cut (the whole ones follow below), then the clause by
  // its id (its title is on the lines below) and the step by its event (the payload too).
  const shorter = `${f.clause} — ${f.stepText} — ${values(48)}`;
  if (shorter.length < HEADLINE_MAX) return shorter;
  const id = /^(?:one of )?((?:§\d+|reading)\.[A-Za-z0-9.]+)/.exec(f.clause)?.[1] ?? f.clause;
  const others = (f.clause.match(/(?:§\d+|reading)\.[A-Za-z0-9.]+/g) ?? []).length - 1;
  const clause = others > 0 ? `${id} (+${others} more)` : id;
  const step = f.stepText.replace(/ [{[].*$/, '');
  const short = `${clause} — ${step} — ${values(48)}`;
  return short.length < HEADLINE_MAX ? short : `${short.slice(0, HEADLINE_MAX - 2)}…`;
}

/** A failure's first line stays under 200 characters. */
const HEADLINE_MAX = 200;

export function formatFailure(f: PathFailure): string {
  return [
    failureHeadline(f),
    `  at ${f.step === 0 ? 'the start' : `step ${f.step}`}: ${f.transition}`,
    `  event: ${f.event}`,
    `  clause: ${f.clause}`,
    `  check: ${f.check}`,
    `  ${f.message}`,
    ...(f.expected !== undefined ? [`  expected: ${f.expected}`] : []),
    ...(f.actual !== undefined ? [`  actual:   ${f.actual}`] : []),
  ].join('\n');
}
type Registry = {
  model: PathModel<AnyStateMachine, OutcomeType>;
  results: PathResult[];
  /** Per driver label, the clauses its state checks declare (`Driver.clauses`). */
  checks: Record<string, Record<string, readonly string[]>>;
};
const registry = new Map<string, Registry>();

export const PATHS_REPORT_DIR = resolve(import.meta.dirname, '../../../reports/paths');

/** Failures grouped by the first failing transition and check: one group, N paths. */
function groupFailures(results: PathResult[]): {
  key: string;
  driver: string;
  clause: string;
  headline: string;
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
      ? `${r.driver} · ${f.clause} · ${f.eventType} · ${f.check} · ${f.message.replace(/\s*\([^)]*\)$/, '')}`
      : `${r.driver} · ${r.error ?? ''}`;
    const group = groups.get(key) ?? {
      key,
      driver: r.driver,
      clause: f?.clause ?? 'no clause named',
      headline: f ? failureHeadline(f) : (r.error ?? ''),
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
    lines.push(`  ✗ ${g.headline}`);
    lines.push(`      ${g.paths.length} path(s) fail first at ${g.transition}`);
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
      // Every generated path runs once per driver: the counts are path runs, per driver below.
      passed: results.filter((r) => r.status === 'passed').length,
      failed: results.filter((r) => r.status === 'failed').length,
      byDriver: Object.fromEntries(
        [...new Set(results.map((r) => r.driver))].map((driver) => [
          driver,
          {
            passed: results.filter((r) => r.driver === driver && r.status === 'passed').length,
            failed: results.filter((r) => r.driver === driver && r.status === 'failed').length,
          },
        ]),
      ),
      results,
    },
    checks: entry.checks,
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
    guards: model.guards,
    guardReasons: model.spec.guardReasons ?? {},
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
  const checking = (name: string, key: string | undefined, fn: () => void | Promise<void>) =>
    Promise.resolve()
      .then(fn)
      .catch((error: unknown) => {
        throw Object.assign(error instanceof Error ? error : new Error(String(error)), {
          pathCheck: name,
          pathCheckKey: key,
        });
      });
  if (actual) {
    await checking('the actor is in the expected state', undefined, () => {
      const is = stateValueToString(actual(ctx).value);
      const should = stateValueToString(snapshot.value);
      if (is !== should)
        throw Object.assign(new Error(`the state: expected ${should}, actual ${is} (${where})`), {
          expected: `in state ${should}`,
          actual: `in state ${is}`,
          inWords: true,
        });
    });
  }
  // '*' runs in every state, then each check whose key the state matches.
  const keys = Object.keys(states).filter((k) => k !== '*' && snapshot.matches(k as never));
  if (states['*']) keys.unshift('*');
  for (const key of keys)
    await checking(`state check '${key}'`, key, () => states[key]!({ ctx, snapshot }));
}

/** `after resendTick (+1000 ms)`: a delay with its duration (the spec's, else the chart's). */
function stepName(machine: AnyStateMachine, type: string, label: string): string {
  const delay = /^xstate\.after\.([^.]+)\./.exec(type)?.[1];
  if (!delay) return label;
  let ms: number | undefined;
  try {
    ms = specDelay(type);
  } catch {
    try {
      ms = delayOf(machine, type);
    } catch {
      ms = undefined;
    }
  }
  return `after ${delay}${ms === undefined ? '' : ` (+${ms} ms)`}`;
}

/**
 * The clause a failure breaks: the one its assertion names (`specExpect`, a spec timer), else the
 * ones its state check declares (`Driver.clauses`), else the spec transitions the step walks,
 * else the spec section its message quotes.
 */
function clauseOfFailure(
  error: unknown,
  checkKey: string | undefined,
  declared: Record<string, readonly string[]> | undefined,
  walked: string[],
): string {
  const named = clauseOfError(error);
  if (named) return clauseLabel(named);
  const ofCheck = checkKey === undefined ? [] : [...(declared?.[checkKey] ?? [])];
  const ids = ofCheck.length > 0 ? ofCheck : walked;
  if (ids.length === 1) return clauseLabel(ids[0]!);
  if (ids.length > 1) return `one of ${ids.map(clauseLabel).join('; ')}`;
  const message = (error as { message?: unknown })?.message;
  const section = typeof message === 'string' ? /§\d+/.exec(message)?.[0] : undefined;
  return section
    ? `${section} (no clause id named; the check quotes the section)`
    : 'no clause named';
}

export async function runPath<M extends AnyStateMachine, O extends OutcomeType, Ctx>(
  model: PathModel<M, O>,
  path: GeneratedPath<M, O>,
  driver: Driver<PathModel<M, O>, Ctx>,
): Promise<void> {
  const useFake = driver.fakeTimers !== false;
  if (useFake) vi.useFakeTimers();
  let ctx: Ctx | undefined;
  try {
    const startValue = stateValueToString((path.initial as AnyMachineSnapshot).value);
    const total = path.steps.length;
    let walked: string[] = [];
    let where: Where = {
      step: 0,
      stepText: `at the start (before step 1 of ${total})`,
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
        const prev = (
          index === 0 ? path.initial : path.steps[index - 1]!.snapshot
        ) as AnyMachineSnapshot;
        walked = (model.spec.required ?? [])
          .filter(
            (r) =>
              (step.event.type === r.event || step.event.type.startsWith(`${r.event}.`)) &&
              safeMatches(prev, r.from) &&
              safeMatches(step.snapshot as AnyMachineSnapshot, r.to),
          )
          .map((r) => r.clause);
        where = {
          step: index + 1,
          stepText: `step ${index + 1} of ${total}: ${stepName(model.machine, step.event.type, step.label)}`,
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
      const checkKey = (error as { pathCheckKey?: unknown })?.pathCheckKey;
      const failure = describeFailure(
        error,
        { ...where, check: typeof check === 'string' ? check : where.check },
        clauseOfFailure(
          error,
          typeof checkKey === 'string' ? checkKey : undefined,
          driver.clauses,
          walked,
        ),
      );
      throw new StepError(failure, { cause: error });
    }
  } finally {
    if (ctx !== undefined) await driver.teardown?.(ctx);
    if (useFake) vi.useRealTimers();
  }
}

function safeMatches(snapshot: AnyMachineSnapshot, value: string): boolean {
  try {
    return snapshot.matches(value as never);
  } catch {
    return false;
  }
}

function pathStates(path: GeneratedPath<AnyStateMachine, OutcomeType>): AnyMachineSnapshot[] {
  return [path.initial, ...path.steps.map((s) => s.snapshot)] as AnyMachineSnapshot[];
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
    checks: {},
  };
  entry.checks[label] = driver.clauses ?? {};
  registry.set(model.name, entry);

  describe(`${model.name} paths (${label})`, () => {
    for (const path of model.paths) {
      // What this path asserts: the clauses it walks and those of the checks its states run.
      const checked = Object.entries(driver.clauses ?? {})
        .filter(([key]) => key === '*' || pathStates(path).some((s) => safeMatches(s, key)))
        .flatMap(([, ids]) => ids);
      const pathClauses = [...new Set([...path.clauses, ...checked])];
      it(path.description, async () => {
        try {
          await runPath(model, path, driver);
          entry.results.push({
            description: path.description,
            driver: label,
            status: 'passed',
            clauses: pathClauses,
          });
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
            clauses: pathClauses,
            error: message,
            ...(failure ? { failure } : {}),
          });
          // The original error (with its own stack, pointing at the check) is the cause.
          const original = error instanceof StepError ? error.cause : error;
          const [headline, ...rest] = message.split('\n');
          const wrapped = new Error([headline, `path: ${path.description}`, ...rest].join('\n'), {
            cause: original,
          });
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
        // Without paths every spec transition would read as lost: say what happened instead.
        if (model.generation.error)
          expect.fail(`${model.name}: coverage not measured: ${model.generation.error}`);
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
