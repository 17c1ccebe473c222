import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { Chart } from './graph';

/**
 * Automatic layout of a chart with ELK (layered, hierarchical), loaded on first use so neither
 * the app nor the visualiser's first paint waits for it. Returns absolute coordinates.
 */
type Box = { x: number; y: number; width: number; height: number };
type LaidOutNode = Box & { id: string; compound: boolean };
type LaidOutEdge = {
  id: string;
  source: string;
  target: string;
  label: string;
  kind: string;
  points: { x: number; y: number }[];
  labelBox: Box | null;
};
/**
 * A transition that changes no state (an action taken where the actor is, wherever inside a
 * compound it is): written as a line under its state's title, not drawn as an arrow looping round
 * the state (round everything a compound holds). A transition that re-enters its state is drawn.
 */
type LaidOutHandler = {
  id: string;
  node: string;
  label: string;
  kind: string;
  x: number;
  y: number;
};
export type Layout = {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
  handlers: LaidOutHandler[];
};

/** Widths per character of the state titles (13 px, bold when active) and labels (12 px). */
const CHAR = 8;
const LABEL_CHAR = 7.2;
const TITLE = 26;
const LINE = 16;
const HANDLER_LINE = 17;

/** The handler line of an edge, as the chart prints it. */
export const handlerText = (label: string) => `↻ ${label}`;

type ElkInstance = { layout: (graph: ElkNode) => Promise<ElkNode> };

let elk: Promise<ElkInstance> | null = null;

function loadElk(): Promise<ElkInstance> {
  elk ??= import('elkjs/lib/elk.bundled.js').then(
    ({ default: ELK }) => new ELK() as unknown as ElkInstance,
  );
  return elk;
}

export async function layoutChart(chart: Chart): Promise<Layout> {
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const isHandler = (edge: Chart['edges'][number]) =>
    !edge.reenter && edge.targets.every((t) => t === edge.source);
  const handlersOf = (id: string) =>
    chart.edges.filter((e) => e.source === id && isHandler(e)).map((e) => handlerText(e.label));
  const toElk = (id: string): ElkNode => {
    const node = byId.get(id)!;
    const label = `▸ ${node.key}${node.type === 'parallel' ? ' ∥' : ''}`;
    const invokeLines = node.invokes.map((i) => `invoke ${i.id}`);
    const handlerLines = handlersOf(id);
    const textWidth =
      Math.max(
        label.length * CHAR,
        ...invokeLines.map((l) => l.length * LABEL_CHAR),
        ...handlerLines.map((l) => l.length * LABEL_CHAR),
      ) + 24;
    if (node.children.length === 0) {
      return {
        id,
        width: Math.max(80, textWidth),
        height: 34 + invokeLines.length * LINE + handlerLines.length * HANDLER_LINE,
      };
    }
    const top = TITLE + 8 + invokeLines.length * LINE + handlerLines.length * HANDLER_LINE;
    return {
      id,
      layoutOptions: {
        'elk.padding': `[top=${top},left=14,bottom=14,right=14]`,
        'elk.nodeSize.minimum': `(${textWidth}, 40)`,
      },
      children: node.children.map(toElk),
    };
  };
  const edges: ElkExtendedEdge[] = chart.edges
    .filter((e) => !isHandler(e))
    .flatMap((edge) =>
      edge.targets.map((target, i) => ({
        id: `${edge.id}-${i}`,
        sources: [edge.source],
        targets: [target],
        labels: [{ text: edge.label, width: edge.label.length * LABEL_CHAR + 6, height: 15 }],
      })),
    );
  const root = byId.get(chart.root)!;
  const graph: ElkNode = {
    id: '__graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '40',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      'elk.edgeLabels.inline': 'false',
    },
    children: [toElk(root.id)],
    edges,
  };
  const out = await (await loadElk()).layout(graph);

  const nodes: LaidOutNode[] = [];
  const absolute = new Map<string, { x: number; y: number }>([['__graph', { x: 0, y: 0 }]]);
  const walk = (n: ElkNode, ox: number, oy: number) => {
    const x = ox + (n.x ?? 0);
    const y = oy + (n.y ?? 0);
    absolute.set(n.id, { x, y });
    if (n.id !== '__graph') {
      nodes.push({
        id: n.id,
        x,
        y,
        width: n.width ?? 0,
        height: n.height ?? 0,
        compound: (n.children?.length ?? 0) > 0,
      });
    }
    for (const child of n.children ?? []) walk(child, x, y);
  };
  walk(out, -(out.x ?? 0), -(out.y ?? 0));

  const meta = new Map(
    chart.edges.flatMap((e) => e.targets.map((_, i): [string, typeof e] => [`${e.id}-${i}`, e])),
  );
  const laidEdges: LaidOutEdge[] = (out.edges ?? []).map((edge) => {
    const container = (edge as ElkExtendedEdge & { container?: string }).container ?? '__graph';
    const o = absolute.get(container) ?? { x: 0, y: 0 };
    const section = edge.sections?.[0];
    const points = section
      ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({
          x: p.x + o.x,
          y: p.y + o.y,
        }))
      : [];
    const label = edge.labels?.[0];
    const original = meta.get(edge.id);
    return {
      id: edge.id,
      source: edge.sources[0] ?? '',
      target: edge.targets[0] ?? '',
      label: original?.label ?? '',
      kind: original?.kind ?? 'event',
      points,
      labelBox: label
        ? {
            x: (label.x ?? 0) + o.x,
            y: (label.y ?? 0) + o.y,
            width: label.width ?? 0,
            height: label.height ?? 0,
          }
        : null,
    };
  });
  const handlers = nodes.flatMap((n) => {
    const node = byId.get(n.id);
    if (!node) return [];
    const first = n.y + 34 + node.invokes.length * LINE;
    return chart.edges
      .filter((e) => e.source === n.id && isHandler(e))
      .map((e, k) => ({
        id: e.id,
        node: n.id,
        label: e.label,
        kind: e.kind,
        x: n.x + 10,
        y: first + k * HANDLER_LINE,
      }));
  });
  return { width: out.width ?? 0, height: out.height ?? 0, nodes, edges: laidEdges, handlers };
}
