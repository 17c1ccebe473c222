import { it } from 'vitest';
import {
  initialTransition,
  transition,
  type AnyStateMachine,
  type EventFromLogic,
  type SnapshotFrom,
} from 'xstate';
import type { ClauseId } from '../clauses';
import type { GeneratedPath, ModelEvent, OutcomeType, PathModel } from './model';
import {
  formatFailure,
  runPath,
  StepError,
  type Driver,
  type Executor,
  type StateCheck,
} from './run';

/**
 * An expected record kept from the events alone, by the spec's rules: the first line of a
 * path's checks. The generic check (the live actor in the state the generated path expects)
 * compares the chart with itself, so a chart that breaks the spec regenerates paths that agree
 * with it; a record cannot be regenerated.
 *
 * - `start` is the record at the start of a path (from the path's input only);
 * - `next` is the spec's answer to one event, from the record before it (and what the fakes
 *   were asked, in `ctx`), never from the machine's snapshot;
 * - `check` compares the live system with the record after every step, with `specExpect` so the
 *   first line of a failure names the clause.
 */
export type SpecRecord<Ctx, X, E> = {
  start: (args: { ctx: Ctx; input: unknown }) => X;
  next: (x: X, event: E, ctx: Ctx) => X;
  check: (ctx: Ctx, x: X) => void | Promise<void>;
  /** The clauses `check` asserts (listed in the clause view under the '*' check). */
  clauses: readonly ClauseId[];
};

const records = new WeakMap<object, unknown>();

/** The record a path has reached (for an executor that wants to assert against it). */
function recordOf<X>(ctx: object): X {
  if (!records.has(ctx)) throw new Error('this path keeps no spec record');
  return records.get(ctx) as X;
}

/**
 * The driver with the record: every executor first folds its event into the record (the rule
 * decides from the record before the event), and the record's check runs in every state before
 * the driver's own checks.
 */
export function withSpecRecord<M extends AnyStateMachine, O extends OutcomeType, Ctx, X>(
  _model: PathModel<M, O>,
  driver: Driver<PathModel<M, O>, Ctx>,
  record: SpecRecord<Ctx, X, ModelEvent<M, O>>,
): Driver<PathModel<M, O>, Ctx> {
  type S = SnapshotFrom<M>;
  const original = driver.events as unknown as Record<string, Executor<Ctx, ModelEvent<M, O>, S>>;
  const events = Object.fromEntries(
    Object.entries(original).map(([type, exec]) => [
      type,
      async (args: { ctx: Ctx; event: ModelEvent<M, O>; snapshot: S }) => {
        const key = args.ctx as object;
        const next = record.next(recordOf<X>(key), args.event, args.ctx);
        await exec(args);
        records.set(key, next);
      },
    ]),
  ) as unknown as Driver<PathModel<M, O>, Ctx>['events'];
  const own = driver.states ?? {};
  const everywhere = own['*'];
  const star: StateCheck<Ctx, S> = async (args) => {
    await record.check(args.ctx, recordOf<X>(args.ctx as object));
    await everywhere?.(args);
  };
  return {
    ...driver,
    setup: async (path) => {
      const ctx = await driver.setup(path);
      records.set(ctx as object, record.start({ ctx, input: path.input }));
      return ctx;
    },
    events,
    states: { ...own, '*': star },
    clauses: {
      ...driver.clauses,
      '*': [...new Set([...(driver.clauses?.['*'] ?? []), ...record.clauses])],
    },
  };
}

/** A sequence of events written from the spec, run whatever the chart accepts. */
export type SpecScenario<E> = { name: string; input?: unknown; events: readonly E[] };

/**
 * Runs event sequences written from the spec through a driver (with its record): unlike the
 * generated paths, an event the chart refuses is still sent, so a rule the chart lost in some
 * context (a tab switch that only works after a card was chosen) meets the record there. The
 * generic state check compares with the chart's own answer; the record's check is the one that
 * can fail.
 */
export function testSpecScenarios<M extends AnyStateMachine, O extends OutcomeType, Ctx>(
  model: PathModel<M, O>,
  driver: Driver<PathModel<M, O>, Ctx>,
  scenarios: readonly SpecScenario<ModelEvent<M, O>>[],
): void {
  for (const scenario of scenarios) {
    const input = scenario.input ?? model.spec.input;
    const [initial] = (
      initialTransition as unknown as (m: AnyStateMachine, i?: unknown) => [SnapshotFrom<M>]
    )(model.machine, input);
    let snapshot = initial;
    const steps = scenario.events.map((event) => {
      const [next] = transition(model.machine, snapshot, event as EventFromLogic<M>);
      snapshot = next as SnapshotFrom<M>;
      return { event, snapshot, label: event.type };
    });
    const path = {
      description: `spec: ${scenario.name}`,
      input,
      initial,
      steps,
      clauses: [],
    } as unknown as GeneratedPath<M, O>;
    it(path.description, async () => {
      try {
        await runPath(model, path, driver);
      } catch (error) {
        if (!(error instanceof StepError)) throw error;
        throw new Error(formatFailure(error.failure), { cause: error.cause });
      }
    });
  }
}
