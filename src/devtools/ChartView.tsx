import { useEffect, useState } from 'react';
import type { Chart } from './graph';
import { layoutChart, type Layout } from './layout';

/** One machine drawn as a statechart (SVG), laid out by ELK; active states highlighted. */
export function ChartView({ chart, active }: { chart: Chart; active: Set<string> }) {
  const [layout, setLayout] = useState<Layout | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    layoutChart(chart).then(
      (result) => {
        if (!cancelled) setLayout(result);
      },
      (e: unknown) => {
        if (!cancelled) setError(String(e));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [chart]);

  if (error) return <p className="devtools-error">Layout failed: {error}</p>;
  if (!layout) return <p className="devtools-muted">Laying out…</p>;
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const markerId = `arrow-${chart.id}`;
  return (
    <svg
      className="devtools-chart"
      data-chart={chart.id}
      viewBox={`-4 -4 ${layout.width + 8} ${layout.height + 8}`}
      width={layout.width + 8}
      role="img"
      aria-label={`Statechart of ${chart.id}`}
    >
      <defs>
        <marker
          id={markerId}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className="devtools-arrow" />
        </marker>
      </defs>
      {layout.nodes.map((n) => {
        const node = byId.get(n.id);
        if (!node) return null;
        const isActive = active.has(n.id);
        const isInitial = node.parent ? byId.get(node.parent)?.initial === n.id : false;
        return (
          <g
            key={n.id}
            className={`devtools-node${n.compound ? ' compound' : ''}${isActive ? ' active' : ''}${node.type === 'final' ? ' final' : ''}`}
            data-state-id={n.id}
            data-active={isActive ? 'true' : undefined}
          >
            <rect x={n.x} y={n.y} width={n.width} height={n.height} rx={8} />
            <text x={n.x + 10} y={n.y + 18} className="devtools-node-title">
              {isInitial ? '▸ ' : ''}
              {node.key}
              {node.type === 'parallel' ? ' ∥' : ''}
              {node.type === 'final' ? ' ◉' : ''}
            </text>
            {node.invokes.map((inv, i) => (
              <text key={inv.id} x={n.x + 10} y={n.y + 34 + i * 16} className="devtools-invoke">
                invoke {inv.id}
              </text>
            ))}
          </g>
        );
      })}
      {layout.edges.map((e) =>
        e.points.length > 1 ? (
          <g key={e.id} className={`devtools-edge ${e.kind}`} data-edge-label={e.label}>
            <polyline
              points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
              markerEnd={`url(#${markerId})`}
            />
            {e.labelBox ? (
              <text x={e.labelBox.x} y={e.labelBox.y + e.labelBox.height - 3}>
                {e.label}
              </text>
            ) : null}
          </g>
        ) : null,
      )}
    </svg>
  );
}
