import fc from 'fast-check';
import { expect } from 'vitest';
import {
  initialTransition,
  transition,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventFromLogic,
  type SnapshotFrom,
} from 'xstate';

/**
 * Property tests over a machine's pure transition function: random event arrays are folded
 * through `initialTransition` / `transition`; an event is sent only when the snapshot can take it
 * (`s.can(e)`), and the invariant is checked after the start and after every event.
 * Runs: PROPERTY_RUNS (default 200). Seed: PROPERTY_SEED or random, printed on every run.
 */
type InvariantArgs<M extends AnyStateMachine> = {
  snapshot: SnapshotFrom<M>;
  previous: SnapshotFrom<M> | null;
  event: EventFromLogic<M> | AnyEventObject | null;
  /** Events sent so far (including this one). */
  history: AnyEventObject[];
};

export type PropertySpec<M extends AnyStateMachine> = {
  machine: M;
  input?: unknown;
  /** Arbitrary of one event, or the list of event variants to pick from. */
  events: fc.Arbitrary<AnyEventObject> | readonly AnyEventObject[];
  /** Throw (e.g. with expect) or return false when the invariant does not hold. */
  invariant: (args: InvariantArgs<M>) => void | boolean;
  maxEvents?: number;
  runs?: number;
};

export function propertyRuns(): number {
  const runs = Number(process.env.PROPERTY_RUNS ?? 200);
  return Number.isFinite(runs) && runs > 0 ? Math.floor(runs) : 200;
}

/** The seed of this run: PROPERTY_SEED when set (to replay a failure), otherwise random. */
function propertySeed(): number {
  const fromEnv = Number(process.env.PROPERTY_SEED);
  return process.env.PROPERTY_SEED && Number.isInteger(fromEnv)
    ? fromEnv
    : Math.floor(Math.random() * 0x7fffffff);
}

/**
 * The one way to run a fast-check property in this repo: prints `property <name>: seed=<n>
 * runs=<n>`, replays PROPERTY_SEED, and on failure prints the seed, the shrunk counterexample
 * and the replay command. Never call fc.assert directly (tests/model/oracle.test.ts checks).
 */
export function assertProperty<Ts>(
  name: string,
  property: fc.IProperty<Ts>,
  options: { runs?: number } = {},
): void {
  const numRuns = options.runs ?? propertyRuns();
  const seed = propertySeed();
  console.log(`property ${name}: seed=${seed} runs=${numRuns}`);
  const result = fc.check(property, { numRuns, seed });
  if (result.failed) {
    const message =
      `property ${name}: seed=${seed} runs=${numRuns} FAILED\n` +
      `${fc.defaultReportMessage(result) ?? ''}\n` +
      `replay: PROPERTY_SEED=${seed} (fast-check path ${result.counterexamplePath ?? ''})`;
    console.log(message);
    const cause = result.errorInstance;
    expect.fail(
      cause instanceof Error && cause.stack
        ? `${message}\n\noriginal error:\n${cause.stack}`
        : message,
    );
  }
}

export function checkProperty<M extends AnyStateMachine>(
  name: string,
  spec: PropertySpec<M>,
): void {
  const eventArb = Array.isArray(spec.events)
    ? fc.constantFrom(...(spec.events as readonly AnyEventObject[]))
    : (spec.events as fc.Arbitrary<AnyEventObject>);
  const property = fc.property(
    fc.array(eventArb, { maxLength: spec.maxEvents ?? 30 }),
    (events) => {
      const machine = spec.machine;
      const start = (
        initialTransition as unknown as (m: AnyStateMachine, i?: unknown) => [unknown]
      )(machine, spec.input)[0] as SnapshotFrom<M>;
      const history: AnyEventObject[] = [];
      const check = (args: InvariantArgs<M>) => {
        if (spec.invariant(args) === false) {
          throw new Error(
            `invariant broken after ${history.map((e) => e.type).join(' → ') || 'start'}`,
          );
        }
      };
      check({ snapshot: start, previous: null, event: null, history });
      let snapshot = start;
      for (const event of events) {
        if (!(snapshot as AnyMachineSnapshot).can(event)) continue;
        history.push(event);
        const [next] = transition(machine, snapshot, event as EventFromLogic<M>);
        check({ snapshot: next as SnapshotFrom<M>, previous: snapshot, event, history });
        snapshot = next as SnapshotFrom<M>;
      }
    },
  );
  assertProperty(name, property, { runs: spec.runs });
}

/**
 * `checkProperty` over a path model's own machine and its event variants (`model.events`, every
 * event and outcome the generated paths may take), in random arrays.
 */
export function checkModelProperty<M extends AnyStateMachine>(
  name: string,
  model: { machine: M; events: readonly { event: AnyEventObject }[] },
  spec: Omit<PropertySpec<M>, 'machine' | 'events'>,
): void {
  checkProperty(name, {
    ...spec,
    machine: model.machine,
    events: model.events.map((e) => e.event),
  });
}
