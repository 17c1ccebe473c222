import {
  getInitialMicrosteps,
  getMicrosteps,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventFromLogic,
  type InputFrom,
  type SnapshotFrom,
  type StateValue,
} from 'xstate';
import { getStateNodes, TestModel, type StatePath } from 'xstate/graph';
import { clauseLabel, DELAY_CLAUSES } from '../clauses';
import { guardCoverage, type GuardCoverage } from './guards';

/**
 * A machine's path model: the machine, payload variants of every event it accepts and of the
 * outcomes of its invoked actors and named delays, and a written reason for anything left
 * uncovered. From it come the generated paths (shortest + simple, deduplicated) and the coverage
 * of states and transitions.
 */

type MachineEvent<M extends AnyStateMachine> = EventFromLogic<M>;
type Payload<E, K> = Omit<Extract<E, { type: K }>, 'type'>;

/** Payload variants of every event type the machine declares (all keys required). */
type EventVariants<M extends AnyStateMachine> = {
  [K in MachineEvent<M>['type']]: readonly Payload<MachineEvent<M>, K>[];
};

/** Outcomes the traversal sends as plain events: actor done / error, and named delays. */
export type OutcomeType =
  `xstate.done.actor.${string}` | `xstate.error.actor.${string}` | `xstate.after.${string}`;

type OutcomePayload<K> = K extends `xstate.done.actor.${string}`
  ? { output?: unknown }
  : K extends `xstate.error.actor.${string}`
    ? { error?: unknown }
    : Record<string, never>;

type OutcomeVariants<O extends string> = { [K in O]: readonly OutcomePayload<K>[] };

type OutcomeEvent<O extends string> = O extends `xstate.done.actor.${infer Id}`
  ? { type: O; output: unknown; actorId: Id }
  : O extends `xstate.error.actor.${infer Id}`
    ? { type: O; error: unknown; actorId: Id }
    : { type: O };

export type ModelSpec<M extends AnyStateMachine, O extends OutcomeType> = {
  /** The machine's folder name under machines/ (names the report and the tests). */
  name: string;
  machine: M;
  input?: InputFrom<M>;
  /**
   * Further starting inputs (stored values the chart branches on at start): paths are generated
   * from each, named with `[input N]`, and coverage is their union.
   */
  inputs?: readonly InputFrom<M>[];
  /** Payload variants per event type; `[{}]` for an event without payload. */
  events: EventVariants<M>;
  /** Payload variants per outcome: `xstate.done.actor.<invokeId>`, `xstate.error.actor.<invokeId>`,
   *  `xstate.after.<delayName>.<stateId>`. */
  outcomes?: OutcomeVariants<O>;
  /** Transition key or state id (as printed in the coverage report) → why no path covers it. */
  uncovered?: Record<string, string>;
  /** Guarded transition key → why the paths see its guard only one way (npm run test:paths). */
  guardReasons?: Record<string, string>;
  /**
   * The transitions the spec requires, written from product-spec.md and not from the chart: a
   * generated path must walk each one (a state matching `from`, the event, then a state matching
   * `to`), so a chart that loses one fails its model test even though coverage of what is left
   * stays at 100 %.
   */
  required?: readonly SpecTransition[];
  /**
   * Path generation: simple paths on top of the shortest ones (default true), caps, and
   * `byTransition`: a step's graph vertex also names the transitions it took, so guarded
   * branches of one event that leave value and context alike (a targetless branch that only
   * runs actions) each get a path of their own.
   */
  paths?: {
    simple?: boolean;
    maxPaths?: number;
    /** Graph vertices the traversal may visit (default GENERATION_BUDGET.vertices). */
    limit?: number;
    /** Wall-clock budget of the generation in ms (default GENERATION_BUDGET.ms). */
    budgetMs?: number;
    byTransition?: boolean;
    /**
     * A step's graph vertex also names the event with its payload, so every payload variant
     * from every vertex gets a path of its own (a chart that treats two variants alike, e.g. a
     * frame that should show a banner and one that should not, still meets both).
     */
    byEvent?: boolean;
  };
};

/**
 * A transition the spec requires. `from` and `to` are state values as `snapshot.matches` reads
 * them (`'copied'`, `'toast.showing'`); `event` is an event type, or its start for outcomes and
 * delays (`'xstate.after.copyFeedback'`); `rule` quotes the spec.
 */
export type SpecTransition = {
  from: string;
  event: string;
  to: string;
  rule: string;
  /** The clause id (tests/support/clauses.ts) the transition comes from. */
  clause: string;
};

export type ModelEvent<M extends AnyStateMachine, O extends OutcomeType> =
  MachineEvent<M> | OutcomeEvent<O>;

type PathStep<M extends AnyStateMachine, O extends OutcomeType> = {
  event: ModelEvent<M, O>;
  /** The snapshot the machine reaches after the event (what a check compares against). */
  snapshot: SnapshotFrom<M>;
  /** Readable label of the event (with the payload when the type has several variants). */
  label: string;
};

export type GeneratedPath<M extends AnyStateMachine, O extends OutcomeType> = {
  description: string;
  /** The machine's input this path starts from. */
  input: InputFrom<M> | undefined;
  initial: SnapshotFrom<M>;
  steps: PathStep<M, O>[];
  /** Clause ids the path walks: the spec transitions it takes and the spec timers it waits out. */
  clauses: string[];
};

export type TransitionInfo = { key: string; source: string; event: string };

export type Coverage = {
  states: { total: number; covered: string[]; uncovered: { key: string; reason: string | null }[] };
  transitions: {
    total: number;
    covered: string[];
    uncovered: { key: string; reason: string | null }[];
  };
  /** Keys in `uncovered` for a state or transition the paths do cover (a note, not a failure). */
  staleReasons: string[];
  /** Keys in `uncovered` that name no state and no transition (a failure: likely a typo). */
  unknownReasons: string[];
  /**
   * Intent events and outcomes the model lists with payloads that no path takes: the chart no
   * longer accepts them anywhere reachable (a removed transition, an `onError` emptied), unless
   * `uncovered` gives a reason by type.
   */
  untakenEvents: { key: string; reason: string | null }[];
  /** The spec's required transitions (`spec.required`) that no generated path walks. */
  unwalkedRequired: { key: string; rule: string; clause: string }[];
};

export type PathModel<M extends AnyStateMachine, O extends OutcomeType> = {
  name: string;
  machine: M;
  spec: ModelSpec<M, O>;
  /** Every event the traversal may send, with its readable label. */
  events: { event: ModelEvent<M, O>; label: string }[];
  paths: GeneratedPath<M, O>[];
  coverage: Coverage;
  /** Every transition of the chart with its key. */
  transitions: TransitionInfo[];
  /** How generation went: paths cut by the cap (printed), and a failure (a failing test). */
  generation: Generation;
  /** Guard outcomes (both ways, MC/DC of and/or) and transition pairs over the paths. */
  guards: GuardCoverage | null;
};

type Generation = {
  /** Per starting input, paths found and paths kept when the cap cut them. */
  truncated: { input: string; found: number; kept: number }[];
  /** "generation failed: …" when the traversal threw or went over its budget. */
  error: string | null;
  ms: number;
};

/** Default traversal budget: graph vertices and wall-clock time. */
const GENERATION_BUDGET = { vertices: 20_000, ms: 60_000 };

export function stateValueToString(value: StateValue): string {
  if (typeof value === 'string') return value;
  const parts = Object.entries(value).map(([key, child]) => {
    const inner = stateValueToString(child as StateValue);
    return inner ? `${key}.${inner}` : key;
  });
  return parts.length === 1 ? (parts[0] ?? '') : `{${parts.join(', ')}}`;
}

function eventLabel(type: string, payload: object, several: boolean): string {
  let label = type;
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (done) label = `${done[1]} done`;
  else if (error) label = `${error[1]} failed`;
  else if (after) label = `after ${after[1]}`;
  if (several) {
    const json = JSON.stringify(payload);
    label += ` ${json.length > 60 ? `${json.slice(0, 57)}...` : json}`;
  }
  return label;
}

function guardName(t: AnyTransitionDefinition): string | null {
  const guard: unknown = t.guard;
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'inline guard';
  if (typeof guard === 'object' && 'type' in guard) return String(guard.type);
  return 'guard';
}

/** A stable, readable key per transition: `source · event [guard] → targets`. */
function transitionKey(t: AnyTransitionDefinition, eventType: string): string {
  const guard = guardName(t);
  const targets = (t.target ?? []).map((n: AnyStateNode) => n.id).join(', ');
  return `${t.source.id} · ${eventType || 'always'}${guard ? ` [${guard}]` : ''} → ${targets || '(no target)'}${t.reenter ? ' (reenter)' : ''}`;
}

function listTransitions(machine: AnyStateMachine): {
  byDefinition: Map<AnyTransitionDefinition, string>;
  list: TransitionInfo[];
} {
  const byDefinition = new Map<AnyTransitionDefinition, string>();
  const list: TransitionInfo[] = [];
  const add = (t: AnyTransitionDefinition, event: string) => {
    let key = transitionKey(t, event);
    for (let n = 2; list.some((i) => i.key === key); n++) key = `${transitionKey(t, event)} #${n}`;
    byDefinition.set(t, key);
    list.push({ key, source: t.source.id, event: event || 'always' });
  };
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const [event, defs] of node.transitions) for (const t of defs) add(t, event);
    for (const t of node.always ?? []) add(t, '');
  }
  return { byDefinition, list };
}

type Microsteps = Array<[AnyMachineSnapshot, unknown[]]>;
const initialMicrosteps = getInitialMicrosteps as (
  m: AnyStateMachine,
  input?: unknown,
) => Microsteps;
const microsteps = getMicrosteps as (
  m: AnyStateMachine,
  s: AnyMachineSnapshot,
  e: AnyEventObject,
) => Microsteps;

function activeNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return (snapshot as AnyMachineSnapshot & { _nodes: AnyStateNode[] })._nodes;
}

/** Transitions taken in one macrostep: the event's own, then any eventless ones. */
function takenTransitions(
  machine: AnyStateMachine,
  prev: AnyMachineSnapshot | null,
  event: AnyEventObject | null,
  input?: unknown,
  seen?: AnyMachineSnapshot[],
): AnyTransitionDefinition[] {
  const taken: AnyTransitionDefinition[] = [];
  const micro = (
    prev && event ? microsteps(machine, prev, event) : initialMicrosteps(machine, input)
  ).map(([s]) => s);
  // Transient states (left by an eventless transition in the same step) are active only here.
  seen?.push(...micro);
  let before = prev;
  micro.forEach((after, index) => {
    if (index === 0 && prev && event) {
      taken.push(...machine.getTransitionData(prev as never, event as never));
    } else if (before) {
      // Eventless step: an `always` of a node active before whose target is active after.
      const nowActive = new Set(activeNodes(after));
      for (const node of activeNodes(before)) {
        const hit = (node.always ?? []).find((t: AnyTransitionDefinition) =>
          (t.target ?? []).every((target: AnyStateNode) => nowActive.has(target)),
        );
        if (hit) {
          taken.push(hit);
          break;
        }
      }
    }
    before = after;
  });
  return taken;
}

function stateCovered(node: AnyStateNode, snapshots: AnyMachineSnapshot[]): boolean {
  return snapshots.some((s) => activeNodes(s).includes(node));
}

function serializeModelState(
  snapshot: AnyMachineSnapshot,
  event: AnyEventObject | undefined,
  prev?: AnyMachineSnapshot,
): string {
  return JSON.stringify([snapshot.value, snapshot.context, event?.type, prev?.value]);
}

/**
 * The first `max` paths when there are more: first those that each walk a step (state, event
 * with its payload, next state) no path chosen before walks, then the rest in their order, so a
 * cap never costs coverage that fits under it, a payload variant's included (one failure of a
 * wallet is not another).
 */
function coveringFirst<P extends StatePath<AnyMachineSnapshot, AnyEventObject>>(
  paths: P[],
  max: number,
): P[] {
  const stepsOf = (p: P) =>
    p.steps.map(
      (step, i) =>
        `${JSON.stringify(p.steps[i - 1]?.state.value ?? null)} ${JSON.stringify(step.event)} ${JSON.stringify(step.state.value)}`,
    );
  const seen = new Set<string>();
  const chosen = new Set<P>();
  for (const p of paths) {
    if (chosen.size >= max) break;
    const steps = stepsOf(p);
    if (steps.some((key) => !seen.has(key))) {
      chosen.add(p);
      for (const key of steps) seen.add(key);
    }
  }
  for (const p of paths) if (chosen.size < max) chosen.add(p);
  return paths.filter((p) => chosen.has(p));
}

/**
 * Declares a machine's path model and generates its paths and coverage. Event types must list
 * every event the machine declares; outcomes name invoke ids and delays.
 */
export function defineModel<M extends AnyStateMachine, const O extends OutcomeType = never>(
  spec: ModelSpec<M, O>,
): PathModel<M, O> {
  const { machine } = spec;
  type E = ModelEvent<M, O>;
  const events: { event: E; label: string }[] = [];
  const variants: [string, readonly object[]][] = [
    ...Object.entries(spec.events as Record<string, readonly object[]>),
    ...Object.entries((spec.outcomes ?? {}) as Record<string, readonly object[]>),
  ];
  for (const [type, payloads] of variants) {
    const actorId = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(type)?.[1];
    for (const payload of payloads) {
      const event = { ...payload, type, ...(actorId ? { actorId } : {}) } as unknown as E;
      events.push({ event, label: eventLabel(type, payload, payloads.length > 1) });
    }
  }
  const labels = new Map(events.map((e) => [e.event, e.label]));

  const { byDefinition, list } = listTransitions(machine);
  const stepKey = (
    s: AnyMachineSnapshot,
    e: AnyEventObject | undefined,
    p: AnyMachineSnapshot | undefined,
  ): string => {
    const base = serializeModelState(s, e, p) + (spec.paths?.byEvent && e ? JSON.stringify(e) : '');
    if (!spec.paths?.byTransition || !e || !p) return base;
    const taken = machine
      .getTransitionData(p as never, e as never)
      .map((t: AnyTransitionDefinition) => byDefinition.get(t) ?? '?');
    return `${base}\u0000${taken.join('\u0000')}`;
  };

  const used = new Set<string>();
  const truncated: Generation['truncated'] = [];
  const inputs = [spec.input, ...(spec.inputs ?? [])];
  const generate = (input: InputFrom<M> | undefined, tag: string): GeneratedPath<M, O>[] => {
    const testModel = new TestModel<AnyMachineSnapshot, AnyEventObject, unknown>(machine as never, {
      events: events.map((e) => e.event as AnyEventObject),
      input,
      serializeState: (s, e, p) => stepKey(s, e, p),
      filterEvents: (s, e) => s.can(e),
      stateMatcher: (s, key) => s.matches(key as never),
      limit: spec.paths?.limit ?? GENERATION_BUDGET.vertices,
    });

    const shortest = testModel.getShortestPaths();
    const simple =
      spec.paths?.simple === false
        ? []
        : testModel.getSimplePaths().sort((a, b) => a.steps.length - b.steps.length);
    const raw: StatePath<AnyMachineSnapshot, AnyEventObject>[] = [...shortest, ...simple];

    // Deduplicate: identical event sequences once, and drop a path that is a prefix of another.
    const seqKey = (p: StatePath<AnyMachineSnapshot, AnyEventObject>) =>
      p.steps.map((s) => JSON.stringify(s.event)).join('\u0000');
    const unique = new Map<string, StatePath<AnyMachineSnapshot, AnyEventObject>>();
    for (const p of raw) if (!unique.has(seqKey(p))) unique.set(seqKey(p), p);
    // In sorted order a sequence's extensions follow it directly ('\u0000' sorts first).
    const sorted = [...unique.keys()].sort();
    const prefixes = new Set(
      sorted.filter((key, i) => sorted[i + 1]?.startsWith(`${key}\u0000`) ?? false),
    );
    let kept = [...unique.entries()].filter(([key]) => !prefixes.has(key)).map(([, p]) => p);
    if (kept.length === 0 && raw.length > 0) kept = [raw[0]!];
    const maxPaths = spec.paths?.maxPaths ?? 300;
    if (kept.length > maxPaths) {
      truncated.push({ input: tag || 'input 1', found: kept.length, kept: maxPaths });
      console.warn(
        `paths ${spec.name}${tag ? ` ${tag}` : ''}: ${kept.length} paths found, only the first ${maxPaths} run (paths.maxPaths); raise the cap or split the model`,
      );
    }
    kept = kept.length > maxPaths ? coveringFirst(kept, maxPaths) : kept;

    const [initial] = initialMicrosteps(machine, input).slice(-1)[0] ?? [];
    const initialSnapshot = (kept[0]?.steps[0]?.state ?? initial) as SnapshotFrom<M>;
    const labelOf = (event: AnyEventObject) =>
      labels.get(event as E) ??
      events.find((e) => JSON.stringify(e.event) === JSON.stringify(event))?.label ??
      event.type;

    return kept.map((p): GeneratedPath<M, O> => {
      // Graph paths begin with an init step ({ type: 'xstate.init' }) whose state is the start.
      const [first, ...rest] = p.steps;
      const start = (first?.state ?? initialSnapshot) as SnapshotFrom<M>;
      const steps = rest.map((s) => ({
        event: s.event as E,
        snapshot: s.state as SnapshotFrom<M>,
        label: labelOf(s.event),
      }));
      const valueOf = (snapshot: SnapshotFrom<M>) =>
        stateValueToString((snapshot as AnyMachineSnapshot).value);
      let description = [
        valueOf(start),
        ...steps.map((s) => `─${s.label}→ ${valueOf(s.snapshot)}`),
      ].join(' ');
      if (steps.length === 0) description = `starts in ${description}`;
      if (tag) description = `${tag} ${description}`;
      let unique = description;
      for (let n = 2; used.has(unique); n++) unique = `${description} (#${n})`;
      used.add(unique);
      return { description: unique, input, initial: start, steps, clauses: [] };
    });
  };
  const started = Date.now();
  let generationError: string | null = null;
  let paths: GeneratedPath<M, O>[] = [];
  try {
    paths = inputs.flatMap((input, i) => generate(input, i === 0 ? '' : `[input ${i + 1}]`));
  } catch (error) {
    generationError = `generation failed: ${error instanceof Error ? error.message : String(error)} (budget: ${spec.paths?.limit ?? GENERATION_BUDGET.vertices} vertices)`;
  }
  const ms = Date.now() - started;
  const budgetMs = spec.paths?.budgetMs ?? GENERATION_BUDGET.ms;
  if (!generationError && ms > budgetMs)
    generationError = `generation failed: took ${ms} ms, over the budget of ${budgetMs} ms`;
  if (generationError) console.error(`paths ${spec.name}: ${generationError}`);

  // Coverage: every state node and every transition definition of the chart.
  const takenKeys = new Set<string>();
  const snapshots: AnyMachineSnapshot[] = [];
  // The walk runs the machine again: a machine that throws here fails as a test (the generation
  // test below), not as a file that never loads (which a runner may count as nothing at all).
  type Walked = Parameters<typeof guardCoverage>[2][number];
  const walkedPaths: Walked[] = [];
  try {
    for (const input of inputs) {
      const taken = takenTransitions(machine, null, null, input, snapshots);
      walkedPaths.push({ steps: [{ prev: null, event: null, input }], taken: [taken] });
      for (const t of taken) {
        const key = byDefinition.get(t);
        if (key) takenKeys.add(key);
      }
    }
    for (const path of paths) {
      let prev = path.initial as AnyMachineSnapshot;
      snapshots.push(prev);
      // The path begins where its input's start left it: the start's own transitions come first.
      const walked: Walked = {
        steps: [{ prev: null, event: null, input: path.input }],
        taken: [takenTransitions(machine, null, null, path.input)],
      };
      walkedPaths.push(walked);
      for (const step of path.steps) {
        const taken = takenTransitions(
          machine,
          prev,
          step.event as AnyEventObject,
          undefined,
          snapshots,
        );
        walked.steps.push({ prev, event: step.event as AnyEventObject });
        walked.taken.push(taken);
        for (const t of taken) {
          const key = byDefinition.get(t);
          if (key) takenKeys.add(key);
        }
        prev = step.snapshot as AnyMachineSnapshot;
        snapshots.push(prev);
      }
    }
  } catch (error) {
    generationError ??= `generation failed: ${error instanceof Error ? error.message : String(error)} (while walking the paths for coverage)`;
    console.error(`paths ${spec.name}: ${generationError}`);
  }
  const takenEventTypes = new Set(paths.flatMap((p) => p.steps.map((step) => step.event.type)));
  const matches = (snapshot: AnyMachineSnapshot, value: string): boolean => {
    try {
      return snapshot.matches(value as never);
    } catch {
      return false;
    }
  };
  const walksIn = (path: GeneratedPath<M, O>, r: SpecTransition): boolean =>
    path.steps.some((step, i) => {
      const prev = (i === 0
        ? path.initial
        : path.steps[i - 1]?.snapshot) as unknown as AnyMachineSnapshot;
      const type = step.event.type;
      return (
        (type === r.event || type.startsWith(`${r.event}.`)) &&
        matches(prev, r.from) &&
        matches(step.snapshot as AnyMachineSnapshot, r.to)
      );
    });
  const walks = (r: SpecTransition): boolean => paths.some((path) => walksIn(path, r));
  for (const path of paths) {
    const delays = path.steps
      .map((step) => /^xstate\.after\.([^.]+)\./.exec(step.event.type)?.[1])
      .flatMap((name) => (name && DELAY_CLAUSES[name] ? [DELAY_CLAUSES[name]] : []));
    const walked = (spec.required ?? []).filter((r) => walksIn(path, r)).map((r) => r.clause);
    path.clauses = [...new Set([...walked, ...delays])];
  }
  const stateNodes = getStateNodes(machine.root);
  const takenTargets = new Set(
    [...byDefinition.entries()]
      .filter(([, key]) => takenKeys.has(key))
      .flatMap(([t]) => (t.target ?? []) as AnyStateNode[]),
  );
  const coveredStates: string[] = [];
  const uncoveredStates: string[] = [];
  for (const node of stateNodes) {
    const covered =
      node.type === 'history' ? takenTargets.has(node) : stateCovered(node, snapshots);
    (covered ? coveredStates : uncoveredStates).push(node.id);
  }
  const reasons = spec.uncovered ?? {};
  const coverage: Coverage = {
    states: {
      total: stateNodes.length,
      covered: coveredStates,
      uncovered: uncoveredStates.map((id) => ({ key: id, reason: reasons[id] ?? null })),
    },
    transitions: {
      total: list.length,
      covered: list.filter((t) => takenKeys.has(t.key)).map((t) => t.key),
      uncovered: list
        .filter((t) => !takenKeys.has(t.key))
        .map((t) => ({ key: t.key, reason: reasons[t.key] ?? null })),
    },
    staleReasons: Object.keys(reasons).filter((key) =>
      stateNodes.some((n) => n.id === key) ? coveredStates.includes(key) : takenKeys.has(key),
    ),
    unknownReasons: Object.keys(reasons).filter(
      (key) =>
        !stateNodes.some((n) => n.id === key) &&
        !list.some((t) => t.key === key) &&
        !(key in (spec.events as Record<string, unknown>)) &&
        !(key in ((spec.outcomes ?? {}) as Record<string, unknown>)),
    ),
    untakenEvents: Object.entries({
      ...(spec.events as Record<string, readonly object[]>),
      ...((spec.outcomes ?? {}) as Record<string, readonly object[]>),
    })
      .filter(([type, payloads]) => payloads.length > 0 && !takenEventTypes.has(type))
      .map(([type]) => ({ key: type, reason: reasons[type] ?? null })),
    unwalkedRequired: (spec.required ?? [])
      .filter((r) => !walks(r))
      .map((r) => ({ key: `${r.from} ─${r.event}→ ${r.to}`, rule: r.rule, clause: r.clause })),
  };

  let guards: GuardCoverage | null = null;
  try {
    guards = guardCoverage(machine, byDefinition, walkedPaths);
  } catch (error) {
    console.error(`paths ${spec.name}: guard coverage could not be computed: ${String(error)}`);
  }

  return {
    name: spec.name,
    machine,
    spec,
    events,
    paths,
    coverage,
    transitions: list,
    generation: { truncated, error: generationError, ms },
    guards,
  };
}

/** What keeps coverage below the bar: unexplained gaps and reasons that name nothing. */
export function coverageProblems(model: {
  coverage: Coverage;
  transitions: TransitionInfo[];
}): string[] {
  const { coverage } = model;
  const problems: string[] = [];
  // A lost spec transition first: it names the clause the chart breaks.
  for (const r of coverage.unwalkedRequired ?? []) {
    const line = `${clauseLabel(r.clause)}: spec transition walked by no path: ${r.key} (spec: ${r.rule})`;
    // Under 200 characters: the clause by its id alone when its title makes the line too long.
    problems.push(
      line.length < 200
        ? line
        : `${r.clause}: spec transition walked by no path: ${r.key} (spec: ${r.rule})`,
    );
  }
  for (const s of coverage.states.uncovered) {
    if (!s.reason) problems.push(`state not reached, no reason given: ${s.key}`);
  }
  for (const t of coverage.transitions.uncovered) {
    if (!t.reason) problems.push(`transition not taken, no reason given: ${t.key}`);
  }
  for (const e of coverage.untakenEvents ?? []) {
    if (!e.reason)
      problems.push(`event or outcome never taken by any path, no reason given: ${e.key}`);
  }

  for (const key of coverage.unknownReasons) {
    problems.push(`reason given for no state or transition of the chart: ${key}`);
  }
  return problems;
}
