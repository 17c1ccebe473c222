import {
  getInitialMicrosteps,
  getMicrosteps,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
} from 'xstate';

/**
 * Guard outcomes and transition pairs over the generated paths (the coverage XState v6's testing
 * proposal reports beside states and transitions).
 *
 * - A guard site (one guarded transition of the chart) is evaluated at every decision point the
 *   paths reach: each step's event in every state node active before it, and each eventless
 *   (`always`) guard in every microstep. It is covered both ways when seen true and seen false.
 *   For `and(…)` / `or(…)` each condition must also flip the outcome on its own at least once
 *   (two evaluations that differ only in that condition and in the outcome: MC/DC).
 * - A transition pair is two transitions taken one after the other on a path; the pairs possible
 *   are those whose second transition starts in, above or below a state the first one enters.
 */
type GuardSite = {
  key: string;
  /** The guard as written: `hasAttemptsLeft`, `and(isA, not(isB))`. */
  name: string;
  seenTrue: boolean;
  seenFalse: boolean;
  /** For `and` / `or`: each condition and whether it flipped the outcome alone. */
  conditions?: { name: string; independent: boolean }[];
};

export type GuardCoverage = {
  sites: GuardSite[];
  /** Sites seen both ways (and, for `and` / `or`, every condition shown independent). */
  bothWays: number;
  pairs: { walked: number; possible: number; unwalked: string[] };
};

type Guard = unknown;
type Builtin = ((...args: unknown[]) => boolean) & {
  check: (s: AnyMachineSnapshot, args: object, self: unknown) => boolean;
  guards?: Guard[];
  stateValue?: unknown;
};
const isBuiltin = (g: unknown): g is Builtin => typeof g === 'function' && 'check' in (g as object);

function resolve(guard: Guard, machine: AnyStateMachine): Guard {
  if (typeof guard === 'function') return guard;
  const type = typeof guard === 'string' ? guard : (guard as { type: string }).type;
  const impl = (machine.implementations.guards as Record<string, unknown>)[type];
  return typeof impl === 'function' ? impl : impl === undefined ? guard : resolve(impl, machine);
}

/** The guard as written in the chart. */
function writtenName(guard: Guard, machine: AnyStateMachine): string {
  if (typeof guard === 'string') {
    const impl = resolve(guard, machine);
    return isBuiltin(impl) ? `${guard} = ${writtenName(impl, machine)}` : guard;
  }
  if (isBuiltin(guard)) {
    if (guard.guards) {
      const kind = guard.guards.length === 1 && guard.name !== 'and' ? 'not' : guard.name;
      return `${kind}(${guard.guards.map((g) => writtenName(g, machine)).join(', ')})`;
    }
    return `stateIn(${JSON.stringify(guard.stateValue)})`;
  }
  if (typeof guard === 'function') return guard.name || 'inline guard';
  if (guard && typeof guard === 'object' && 'type' in guard) {
    const impl = resolve(guard, machine);
    return isBuiltin(impl)
      ? `${String(guard.type)} = ${writtenName(impl, machine)}`
      : String(guard.type);
  }
  return 'guard';
}

function evaluate(guard: Guard, s: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const resolved = resolve(guard, s.machine);
  const args = { context: s.context as unknown, event };
  if (isBuiltin(resolved)) return resolved.check(s, args, resolved);
  if (typeof resolved !== 'function') throw new Error(`guard not implemented: ${String(guard)}`);
  const params =
    typeof guard === 'object' && guard !== null && 'params' in guard
      ? typeof guard.params === 'function'
        ? (guard.params as (a: object) => unknown)(args)
        : guard.params
      : undefined;
  return Boolean((resolved as (a: object, p: unknown) => unknown)(args, params));
}

/** The conditions of a top-level `and` / `or` (null for any other guard). */
function conditionsOf(guard: Guard, machine: AnyStateMachine): Guard[] | null {
  const resolved = resolve(guard, machine);
  if (!isBuiltin(resolved) || !resolved.guards) return null;
  return resolved.guards.length > 1 || resolved.name === 'and' || resolved.name === 'or'
    ? resolved.guards
    : null;
}

type Step = { prev: AnyMachineSnapshot | null; event: AnyEventObject | null; input?: unknown };

const initialMicrosteps = getInitialMicrosteps as (
  m: AnyStateMachine,
  input?: unknown,
) => Array<[AnyMachineSnapshot, unknown[]]>;
const microsteps = getMicrosteps as (
  m: AnyStateMachine,
  s: AnyMachineSnapshot,
  e: AnyEventObject,
) => Array<[AnyMachineSnapshot, unknown[]]>;
const nodesOf = (s: AnyMachineSnapshot): AnyStateNode[] =>
  (s as AnyMachineSnapshot & { _nodes: AnyStateNode[] })._nodes;

function related(a: AnyStateNode, b: AnyStateNode): boolean {
  const chain = (n: AnyStateNode) => {
    const out: AnyStateNode[] = [];
    for (let x: AnyStateNode | undefined = n; x; x = x.parent) out.push(x);
    return out;
  };
  return chain(a).includes(b) || chain(b).includes(a);
}

/**
 * Guard outcomes and transition pairs of `machine` over the paths given as steps (`prev` null:
 * the start from `input`), with `taken` the transitions each step took in order.
 */
export function guardCoverage(
  machine: AnyStateMachine,
  byDefinition: Map<AnyTransitionDefinition, string>,
  paths: { steps: Step[]; taken: AnyTransitionDefinition[][] }[],
): GuardCoverage {
  const guarded = [...byDefinition.keys()].filter((t) => t.guard);
  const outcomes = new Map<AnyTransitionDefinition, { t: boolean; f: boolean; seen: Set<string> }>(
    guarded.map((t) => [t, { t: false, f: false, seen: new Set<string>() }]),
  );
  const record = (t: AnyTransitionDefinition, s: AnyMachineSnapshot, e: AnyEventObject) => {
    const o = outcomes.get(t);
    if (!o) return;
    let value: boolean;
    try {
      value = evaluate(t.guard, s, e);
    } catch {
      return; // a guard that asserts another event type: not a decision point of this event
    }
    if (value) o.t = true;
    else o.f = true;
    const conditions = conditionsOf(t.guard, machine);
    if (conditions) {
      const bits = conditions.map((c) => {
        try {
          return evaluate(c, s, e) ? '1' : '0';
        } catch {
          return '?';
        }
      });
      o.seen.add(`${bits.join('')}:${value ? 1 : 0}`);
    }
  };
  const pairsWalked = new Set<string>();
  for (const path of paths) {
    let last: string | null = null;
    for (const [i, step] of path.steps.entries()) {
      const micro =
        step.prev && step.event
          ? microsteps(machine, step.prev, step.event).map(([s]) => s)
          : initialMicrosteps(machine, step.input).map(([s]) => s);
      const event = step.event ?? { type: 'xstate.init' };
      if (step.prev && step.event)
        for (const node of nodesOf(step.prev))
          for (const t of node.transitions.get(step.event.type) ?? []) record(t, step.prev, event);
      for (const s of micro)
        for (const node of nodesOf(s)) for (const t of node.always ?? []) record(t, s, event);
      for (const t of path.taken[i] ?? []) {
        const key = byDefinition.get(t);
        if (!key) continue;
        if (last) pairsWalked.add(`${last} ⇒ ${key}`);
        last = key;
      }
    }
  }
  const sites: GuardSite[] = guarded.map((t) => {
    const o = outcomes.get(t)!;
    const conditions = conditionsOf(t.guard, machine);
    const site: GuardSite = {
      key: byDefinition.get(t) ?? '?',
      name: writtenName(t.guard, machine),
      seenTrue: o.t,
      seenFalse: o.f,
    };
    if (conditions) {
      const seen = [...o.seen].map((v) => v.split(':') as [string, string]);
      site.conditions = conditions.map((c, i) => ({
        name: writtenName(c, machine),
        independent: seen.some(([a, out]) =>
          seen.some(
            ([b, out2]) =>
              out !== out2 &&
              a[i] !== b[i] &&
              [...a].every((bit, j) => j === i || bit === b[j]) &&
              a[i] !== '?' &&
              b[i] !== '?',
          ),
        ),
      }));
    }
    return site;
  });
  const defs = [...byDefinition.keys()];
  const possible: string[] = [];
  for (const a of defs) {
    const into = (a.target ?? []).length > 0 ? (a.target as AnyStateNode[]) : [a.source];
    for (const b of defs)
      if (into.some((n) => related(n, b.source)))
        possible.push(`${byDefinition.get(a)} ⇒ ${byDefinition.get(b)}`);
  }
  // Pairs across parallel regions are walked without being "possible" by the rule above.
  const possibleSet = new Set([...possible, ...pairsWalked]);
  const walked = pairsWalked.size;
  return {
    sites,
    bothWays: sites.filter(
      (s) => s.seenTrue && s.seenFalse && (s.conditions ?? []).every((c) => c.independent),
    ).length,
    pairs: {
      walked,
      possible: possibleSet.size,
      unwalked: possible.filter((p) => !pairsWalked.has(p)).slice(0, 200),
    },
  };
}
