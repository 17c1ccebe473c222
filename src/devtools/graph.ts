import {
  and,
  not,
  or,
  stateIn,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
} from 'xstate';

/**
 * A machine's chart as plain data: nested state nodes and labelled transitions (event, guard,
 * delay), plus invoked actors. Shared by the development visualiser (/__machines) and
 * `npm run machines:export` (Mermaid).
 */
type ChartNode = {
  id: string;
  key: string;
  type: string;
  parent: string | null;
  initial: string | null;
  children: string[];
  invokes: { id: string; src: string }[];
  tags: string[];
};

export type ChartEdge = {
  id: string;
  source: string;
  /** Target node ids; the source itself when the transition has no target. */
  targets: string[];
  kind: 'event' | 'done' | 'error' | 'after' | 'always' | 'wildcard';
  event: string;
  /** What the diagram prints: `signIn.submit`, `after resendCooldown`, `sendCode done`. */
  label: string;
  guard: string | null;
  delay: string | null;
  reenter: boolean;
};

export type Chart = { id: string; root: string; nodes: ChartNode[]; edges: ChartEdge[] };

// The higher-order guards of XState carry their parts and a shared `check`; their own function
// name is lost to minification, so they are told apart by that `check`.
const checkOf = (guard: unknown): unknown => (guard as { check?: unknown }).check;
const COMBINED = [
  ['and', checkOf(and([]))],
  ['or', checkOf(or([]))],
  ['not', checkOf(not('x'))],
] as const;
const STATE_IN = checkOf(stateIn('x'));

/**
 * A guard as the chart's author wrote it: `isSixDigits`, `and(isCurrentJwt, hasRefreshToken)`,
 * `not(shouldPoll)`, `stateIn(#app.loaded)`; `inline guard` for an anonymous function.
 */
export function writtenGuard(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const parts = guard as { check?: unknown; guards?: unknown; stateValue?: unknown };
    const combined = COMBINED.find(([, check]) => check === parts.check);
    if (combined && Array.isArray(parts.guards)) {
      return `${combined[0]}(${parts.guards.map(writtenGuard).join(', ')})`;
    }
    if (parts.check === STATE_IN) return `stateIn(${JSON.stringify(parts.stateValue)})`;
    return guard.name && guard.name.length > 2 ? guard.name : 'inline guard';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  return 'guard';
}

function guardName(t: AnyTransitionDefinition): string | null {
  const guard: unknown = t.guard;
  return guard ? writtenGuard(guard) : null;
}

function srcName(src: unknown): string {
  if (typeof src === 'string') return src.startsWith('xstate.invoke.') ? 'inline actor' : src;
  if (src && typeof src === 'object' && 'id' in src && typeof src.id === 'string') return src.id;
  return 'inline actor';
}

/** XState names an invoke without an id `<index>.<state node id>`: the chart shows its src then. */
const isGeneratedInvokeId = (id: string, nodeId: string) =>
  id.endsWith(`.${nodeId}`) && /^\d+\./.test(id);

export function describeEvent(
  event: string,
  invokeNames: ReadonlyMap<string, string> = new Map(),
): Pick<ChartEdge, 'kind' | 'label' | 'delay'> {
  const after = /^xstate\.after\.([^.]+)\./.exec(event);
  if (after) return { kind: 'after', label: `after ${after[1]}`, delay: after[1] ?? null };
  const actor = (id: string) => invokeNames.get(id) ?? id;
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event);
  if (done) return { kind: 'done', label: `${actor(done[1]!)} done`, delay: null };
  const doneState = /^xstate\.done\.state\.(.+)$/.exec(event);
  if (doneState) return { kind: 'done', label: `${doneState[1]} finished`, delay: null };
  const error = /^xstate\.error\.actor\.(.+)$/.exec(event);
  if (error) return { kind: 'error', label: `${actor(error[1]!)} error`, delay: null };
  if (event === '') return { kind: 'always', label: 'always', delay: null };
  if (event.includes('*')) return { kind: 'wildcard', label: event, delay: null };
  return { kind: 'event', label: event, delay: null };
}

/** The invokes XState named itself (`0.auth`), by that id: the name the chart shows instead. */
function generatedInvokeNames(node: AnyStateNode, names = new Map<string, string>()) {
  for (const i of (node.invoke ?? []) as { id: string; src: unknown }[]) {
    if (isGeneratedInvokeId(i.id, node.id)) names.set(i.id, srcName(i.src));
  }
  for (const child of Object.values(node.states ?? {}) as AnyStateNode[]) {
    generatedInvokeNames(child, names);
  }
  return names;
}

export function machineToChart(machine: AnyStateMachine): Chart {
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  const invokeNames = generatedInvokeNames(machine.root);
  const visit = (node: AnyStateNode, parent: string | null) => {
    const children = Object.values(node.states ?? {}) as AnyStateNode[];
    const initialTarget = (node.initial?.target ?? []) as AnyStateNode[];
    nodes.push({
      id: node.id,
      key: node.key,
      type: node.type,
      parent,
      initial: initialTarget[0]?.id ?? null,
      children: children.map((c) => c.id),
      invokes: (node.invoke ?? []).map((i: { id: string; src: unknown }) => {
        const src = srcName(i.src);
        return { id: isGeneratedInvokeId(i.id, node.id) ? src : i.id, src };
      }),
      tags: [...(node.tags ?? [])].map(String),
    });
    const add = (t: AnyTransitionDefinition, event: string) => {
      const guard = guardName(t);
      const targets = ((t.target ?? []) as AnyStateNode[]).map((n) => n.id);
      const described = describeEvent(event, invokeNames);
      edges.push({
        id: `e${edges.length}`,
        source: node.id,
        targets: targets.length > 0 ? targets : [node.id],
        event: event || 'always',
        ...described,
        label: guard ? `${described.label} [${guard}]` : described.label,
        guard,
        reenter: Boolean(t.reenter),
      });
    };
    for (const [event, defs] of node.transitions as Map<string, AnyTransitionDefinition[]>) {
      for (const t of defs) add(t, event);
    }
    for (const t of (node.always ?? []) as AnyTransitionDefinition[]) add(t, '');
    for (const child of children) visit(child, node.id);
  };
  visit(machine.root, null);
  return { id: machine.id, root: machine.root.id, nodes, edges };
}

const mermaidId = (id: string) => id.replace(/[^A-Za-z0-9_]/g, '_');
const mermaidText = (text: string) => text.replace(/[:;#{}]/g, ' ');

/** Mermaid `stateDiagram-v2` of a chart: nested states, initial markers, labelled transitions. */
export function chartToMermaid(chart: Chart): string {
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const ancestors = (id: string): string[] => {
    const list: string[] = [];
    for (let p = byId.get(id)?.parent ?? null; p; p = byId.get(p)?.parent ?? null) list.push(p);
    return list;
  };
  // Each transition is written in the innermost composite holding both ends (the root's own
  // transitions at the top level), so Mermaid does not create a second state of the same name
  // in an inner scope.
  const scoped = new Map<string, string[]>();
  for (const edge of chart.edges) {
    for (const target of edge.targets) {
      const ofTarget = new Set(ancestors(target));
      const scope =
        edge.source === chart.root
          ? ''
          : (ancestors(edge.source).find((a) => ofTarget.has(a)) ?? chart.root);
      const list = scoped.get(scope) ?? [];
      list.push(`${mermaidId(edge.source)} --> ${mermaidId(target)} : ${mermaidText(edge.label)}`);
      scoped.set(scope, list);
    }
  }
  const lines = ['stateDiagram-v2'];
  const emit = (node: ChartNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const id = mermaidId(node.id);
    const suffix =
      node.type === 'parallel' ? ' (parallel)' : node.type === 'history' ? ' (history)' : '';
    if (node.children.length > 0) {
      lines.push(`${pad}state "${node.key}${suffix}" as ${id} {`);
      if (node.initial) lines.push(`${pad}  [*] --> ${mermaidId(node.initial)}`);
      node.children.forEach((childId, index) => {
        const child = byId.get(childId);
        if (!child) return;
        if (node.type === 'parallel' && index > 0) lines.push(`${pad}  --`);
        emit(child, depth + 1);
      });
      for (const line of scoped.get(node.id) ?? []) lines.push(`${pad}  ${line}`);
      for (const childId of node.children) {
        if (byId.get(childId)?.type === 'final')
          lines.push(`${pad}  ${mermaidId(childId)} --> [*]`);
      }
      lines.push(`${pad}}`);
    } else {
      lines.push(`${pad}state "${node.key}${suffix}" as ${id}`);
    }
    for (const invoke of node.invokes) {
      lines.push(`${pad}${id} : invoke ${mermaidText(invoke.id)} (${mermaidText(invoke.src)})`);
    }
  };
  const root = byId.get(chart.root);
  if (root) emit(root, 0);
  lines.push(...(scoped.get('') ?? []));
  return `${lines.join('\n')}\n`;
}
